import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  auditEvents,
  type Person,
  SUPER_ROLES,
  signUpPerson,
  UNAUTHORIZED,
  USER_NOT_FOUND,
  useAdminCast,
} from "#test/admin.ts";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";

const ADMIN_COOKIE = "tessera.admin_session";
const WHILE_IMPERSONATING = {
  code: "NOT_ALLOWED_WHILE_IMPERSONATING",
  message: "You cannot perform this action while impersonating a user",
};

const { t, admin, user, setUp } = useAdminCast({ open: "by-set-up" });

const sessions = () => t.db.collection("sessions");

async function impersonate(target = user, reason?: string) {
  const res = await admin.browser.post<{
    session: { token: string; expiresAt: string };
    user: { id: string };
  }>("/admin/impersonate-user", { userId: target.id, ...(reason ? { reason } : {}) });
  expect(res.status).toBe(200);
  return res;
}

describe("impersonate-user", () => {
  it("starts a 1-hour session marked impersonatedBy, keeps the admin's session aside, and records who, whom, why", async () => {
    await setUp();
    const adminSession = await sessions().findOne({ userId: new ObjectId(admin.id) });
    const res = await impersonate(user, "support ticket 42");
    expect(res.body.user.id).toBe(user.id);
    const stored = await sessions().findOne({ token: res.body.session.token });
    expect(stored).toMatchObject({
      userId: new ObjectId(user.id),
      impersonatedBy: new ObjectId(admin.id),
      dontRemember: true,
    });
    const lifetime = stored!.expiresAt.getTime() - t.now().getTime();
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    // The admin's own session row is kept; its token travels in a signed, httpOnly cookie.
    expect(await sessions().findOne({ _id: adminSession!._id })).not.toBeNull();
    const cookieLine = res.headers.getSetCookie().find((line) => line.startsWith(`${ADMIN_COOKIE}=`))!;
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/Max-Age=3600/);
    expect(decodeURIComponent(cookieLine)).toContain(adminSession!.token);
    // The browser now acts as the user, and get-session says whose impersonation it is.
    const now = await admin.browser.get<{ session: { impersonatedBy?: string }; user: { id: string } }>(
      "/get-session",
    );
    expect(now.body.user.id).toBe(user.id);
    expect(now.body.session.impersonatedBy).toBe(admin.id);
    const own = await user.browser.get<{ session: Record<string, unknown> }>("/get-session");
    expect(own.body.session).not.toHaveProperty("impersonatedBy");
    const [event] = await auditEvents(t, { action: "impersonation.start" });
    expect(event).toMatchObject({
      actorId: new ObjectId(admin.id),
      subjectId: new ObjectId(user.id),
      reason: "support ticket 42",
      ipAddress: "127.0.0.1",
    });
  });

  it("with the cookie cache on, the cached session still carries impersonatedBy", async () => {
    await setUp({ session: { cookieCache: { enabled: true } } });
    await impersonate();
    const cached = await admin.browser.get<{ session: { impersonatedBy?: string } }>("/get-session");
    expect(cached.body.session.impersonatedBy).toBe(admin.id);
    const before = await auditEvents(t);
    const nested = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
    expect(nested.status).toBe(403);
    expect(await auditEvents(t)).toEqual(before);
  });

  it("the impersonated user does not see the impersonation session in list-sessions", async () => {
    await setUp();
    await impersonate();
    const own = await sessions().findOne({
      userId: new ObjectId(user.id),
      impersonatedBy: { $exists: false },
    });
    const listed = await user.browser.get<{ token: string }[]>("/list-sessions");
    expect(listed.status).toBe(200);
    expect(listed.body.map((session) => session.token)).toEqual([own!.token]);
    // …while the admin area lists it, marked.
    const adminView = await (await signInAgain(admin)).post<{
      sessions: { impersonatedBy: string | null }[];
    }>("/admin/list-user-sessions", { userId: user.id });
    expect(adminView.body.sessions.map((session) => session.impersonatedBy).sort()).toEqual(
      [admin.id, null].sort(),
    );
  });

  it.each([
    ["/admin/list-users", "GET", undefined],
    ["/admin/impersonate-user", "POST", () => ({ userId: admin.id })],
    ["/admin/set-role", "POST", () => ({ userId: user.id, role: "admin" })],
    ["/admin/ban-user", "POST", () => ({ userId: admin.id })],
  ] as const)(
    "inside an impersonation %s is refused with 403 (docs/security.md)",
    async (path, method, body) => {
      await setUp({ admin: { allowImpersonatingAdmins: true } });
      // Impersonating another admin: even with an admin identity, nothing admin is possible.
      const other = await signUpPerson(t, "other", "admin");
      await impersonate(other);
      const before = await auditEvents(t);
      const res = method === "GET" ? await admin.browser.get(path) : await admin.browser.post(path, body?.());
      expect(res.status).toBe(403);
      expect(res.body).toEqual(WHILE_IMPERSONATING);
      expect(await auditEvents(t)).toEqual(before);
      expect(await sessions().countDocuments({ impersonatedBy: { $exists: true } })).toBe(1);
    },
  );

  it("refuses to impersonate another admin by default (docs/security.md)", async () => {
    await setUp();
    const other = await signUpPerson(t, "other", "admin");
    const res = await admin.browser.post("/admin/impersonate-user", { userId: other.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" });
    expect(await sessions().countDocuments({ impersonatedBy: { $exists: true } })).toBe(0);
    expect(await auditEvents(t)).toEqual([]);
    expect(admin.browser.cookies.has(ADMIN_COOKIE)).toBe(false);
  });

  it("a listed admin user id counts as an admin target", async () => {
    const listedId = new ObjectId();
    await setUp({ admin: { adminUserIds: [listedId.toHexString()] } });
    const now = t.now();
    await t.db.collection("users").insertOne({
      _id: listedId,
      email: "root@example.com",
      emailVerified: true,
      name: "Root",
      image: null,
      createdAt: now,
      updatedAt: now,
    });
    const res = await admin.browser.post("/admin/impersonate-user", { userId: listedId.toHexString() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" });
  });

  it("allowImpersonatingAdmins lets an admin impersonate another admin", async () => {
    await setUp({ admin: { allowImpersonatingAdmins: true } });
    const other = await signUpPerson(t, "other", "admin");
    const res = await impersonate(other);
    expect(res.body.user.id).toBe(other.id);
  });

  it.each([
    [
      "self",
      "SELF",
      400,
      { code: "CANNOT_IMPERSONATE_YOURSELF", message: "You cannot impersonate yourself" },
    ],
    ["an unknown id", "000000000000000000000000", 404, USER_NOT_FOUND],
    ["a malformed id", "x", 404, USER_NOT_FOUND],
  ] as const)("refuses %s (docs/security.md)", async (_label, id, status, body) => {
    await setUp();
    const userId = id === "SELF" ? admin.id : id;
    const res = await admin.browser.post("/admin/impersonate-user", { userId });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    expect(await sessions().countDocuments({ impersonatedBy: { $exists: true } })).toBe(0);
  });

  it("refuses a banned user (docs/security.md)", async () => {
    await setUp();
    await admin.browser.post("/admin/ban-user", { userId: user.id });
    const res = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: "CANNOT_IMPERSONATE_BANNED_USER",
      message: "You cannot impersonate a banned user",
    });
    expect(await sessions().countDocuments({ impersonatedBy: { $exists: true } })).toBe(0);
  });

  it("the impersonation session ends after its hour, and the admin area's duration option applies", async () => {
    await setUp({ admin: { impersonationSessionDuration: 600 } });
    await impersonate();
    t.advance(601);
    expect((await admin.browser.get("/get-session")).body).toBeNull();
    const stop = await admin.browser.post("/admin/stop-impersonating");
    expect(stop.status).toBe(401);
  });
});

/** A second browser for the admin (their impersonating browser acts as the user). */
async function signInAgain(person: Person) {
  const browser = new TestBrowser(t.auth);
  await browser.post("/sign-in/email", { email: person.email, password: "correct horse battery" });
  return browser;
}

describe("stop-impersonating", () => {
  it("deletes the impersonation session, restores the admin's session, and records it", async () => {
    await setUp();
    const adminSession = await sessions().findOne({ userId: new ObjectId(admin.id) });
    const started = await impersonate();
    const res = await admin.browser.post<{ session: { token: string }; user: { id: string } }>(
      "/admin/stop-impersonating",
    );
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(admin.id);
    expect(res.body.session.token).toBe(adminSession!.token);
    expect(await sessions().findOne({ token: started.body.session.token })).toBeNull();
    expect(admin.browser.cookies.has(ADMIN_COOKIE)).toBe(false);
    const now = await admin.browser.get<{ user: { id: string } }>("/get-session");
    expect(now.body.user.id).toBe(admin.id);
    expect((await admin.browser.get("/admin/list-users")).status).toBe(200);
    const stop = (await auditEvents(t, { action: "impersonation.stop" }))[0];
    expect(stop).toMatchObject({
      actorId: new ObjectId(admin.id),
      subjectId: new ObjectId(user.id),
      details: { restored: true },
    });
    // The trail names sessions by id, never by token (a token in a log is a credential).
    const trail = JSON.stringify(await auditEvents(t));
    expect(trail).not.toContain(adminSession!.token);
    expect(trail).not.toContain(started.body.session.token);
  });

  it("without an impersonation: 400 You are not impersonating anyone, nothing deleted", async () => {
    await setUp();
    const res = await admin.browser.post("/admin/stop-impersonating");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "NOT_IMPERSONATING", message: "You are not impersonating anyone" });
    expect(await sessions().countDocuments({})).toBe(2);
  });

  it("after the admin's own session was revoked: no restore, signed out (docs/security.md)", async () => {
    await setUp();
    const started = await impersonate();
    await sessions().deleteOne({ userId: new ObjectId(admin.id), impersonatedBy: { $exists: false } });
    const res = await admin.browser.post("/admin/stop-impersonating");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(admin.browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(admin.browser.cookies.has(ADMIN_COOKIE)).toBe(false);
    expect(await sessions().findOne({ token: started.body.session.token })).toBeNull();
    expect((await auditEvents(t, { action: "impersonation.stop" }))[0]?.details).toEqual({ restored: false });
  });

  it("with a forged admin-session cookie: no restore, signed out", async () => {
    await setUp();
    await impersonate();
    const other = await signInAgain(user);
    const victimToken = (await sessions().findOne({ userId: new ObjectId(user.id) }, { sort: { _id: -1 } }))!
      .token;
    admin.browser.cookies.set(ADMIN_COOKIE, `${victimToken}.forged`);
    const res = await admin.browser.post("/admin/stop-impersonating");
    expect(res.status).toBe(401);
    expect(admin.browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await other.get("/get-session")).body).not.toBeNull();
  });

  it("demoting the admin ends their impersonation at once and stop cannot restore", async () => {
    // Demoting another admin needs manage-admins (review finding 1): the boss is a superadmin.
    await setUp({ admin: { roles: SUPER_ROLES } });
    const boss = await signUpPerson(t, "boss", "superadmin");
    await impersonate();
    const res = await boss.browser.post("/admin/set-role", { userId: admin.id, role: "user" });
    expect(res.status).toBe(200);
    expect(await sessions().countDocuments({ impersonatedBy: new ObjectId(admin.id) })).toBe(0);
    expect((await admin.browser.get("/get-session")).body).toBeNull();
    expect((await admin.browser.post("/admin/stop-impersonating")).status).toBe(401);
  });

  it("concurrent stops: exactly one restores and records; the others answer 401 and leave cookies alone", async () => {
    await setUp();
    await impersonate();
    const browsers = Array.from({ length: 6 }, () => {
      const browser = new TestBrowser(t.auth);
      for (const [name, value] of admin.browser.cookies) browser.cookies.set(name, value);
      return browser;
    });
    expect(browsers[0]!.cookies.has(ADMIN_COOKIE)).toBe(true);
    const results = await Promise.all(browsers.map((browser) => browser.post("/admin/stop-impersonating")));
    expect(results.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    // A loser that lost at the delete leaves cookies alone; one that arrives after the winner's delete
    // finds no session, and the engine's session read clears the cookies it sent (run-endpoint).
    expect(results.filter((res) => res.status === 200)[0]?.body).toMatchObject({ user: { id: admin.id } });
    expect(await auditEvents(t, { action: "impersonation.stop" })).toHaveLength(1);
    expect(await sessions().countDocuments({ impersonatedBy: { $exists: true } })).toBe(0);
  });
});
