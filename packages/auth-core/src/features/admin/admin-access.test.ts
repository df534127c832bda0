import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { FORBIDDEN, signUpPerson, UNAUTHORIZED, useAdminCast, userDoc } from "#test/admin.ts";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import { createTestAuth, TEST_SECRET, useFreshTestAuth } from "#test/test-auth.ts";
import { signValue } from "../../crypto/index.ts";
import { coreEndpoints } from "../registry.ts";
import { sessionIdOf } from "../session/store.ts";

/** Every endpoint under /admin/ (the handlers in features/admin/endpoints/). */
const adminEndpoints = coreEndpoints.filter((endpoint) => endpoint.path.startsWith("/admin/"));

/**
 * Every admin endpoint × {admin, non-admin, signed-out}: the user role can do none of it,
 * a signed-out caller gets 401, and a refused call changes nothing in the database.
 */
const { t, admin, user, anon, victim } = useAdminCast({ open: "once", also: { victim: null } });
const freshTestAuth = useFreshTestAuth();

type Call = { method: "GET" | "POST"; path: string; body?: () => Record<string, unknown> };
const CALLS: Call[] = [
  { method: "GET", path: "/admin/list-users" },
  { method: "GET", path: "/admin/get-user?id=VICTIM" },
  { method: "GET", path: "/admin/list-audit-events" },
  { method: "POST", path: "/admin/create-user", body: () => ({ email: "new@example.com", name: "New" }) },
  {
    method: "POST",
    path: "/admin/update-user",
    body: () => ({ userId: victim.id, data: { name: "Hacked" } }),
  },
  { method: "POST", path: "/admin/set-role", body: () => ({ userId: victim.id, role: "admin" }) },
  { method: "POST", path: "/admin/ban-user", body: () => ({ userId: victim.id }) },
  { method: "POST", path: "/admin/unban-user", body: () => ({ userId: victim.id }) },
  { method: "POST", path: "/admin/impersonate-user", body: () => ({ userId: victim.id }) },
  { method: "POST", path: "/admin/list-user-sessions", body: () => ({ userId: victim.id }) },
  { method: "POST", path: "/admin/revoke-user-session", body: () => ({ sessionToken: "x".repeat(32) }) },
  { method: "POST", path: "/admin/revoke-user-sessions", body: () => ({ userId: victim.id }) },
  { method: "POST", path: "/admin/remove-user", body: () => ({ userId: victim.id }) },
  {
    method: "POST",
    path: "/admin/set-user-password",
    body: () => ({ userId: victim.id, newPassword: "another password" }),
  },
];

async function call(browser: TestBrowser, c: Call) {
  const path = c.path.replace("VICTIM", victim.id);
  return c.method === "GET" ? browser.get(path) : browser.post(path, c.body?.());
}

async function snapshot() {
  const collections = ["users", "sessions", "accounts", "auditEvents"];
  return Promise.all(collections.map((name) => t.db.collection(name).find({}).sort({ _id: 1 }).toArray()));
}

describe("every admin endpoint refuses callers without the permission", () => {
  it.each(CALLS)("$method $path: a user-role caller gets 403 and nothing changes", async (c) => {
    const before = await snapshot();
    const res = await call(user.browser, c);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect(await snapshot()).toEqual(before);
  });

  it.each(CALLS)("$method $path: a signed-out caller gets 401 and nothing changes", async (c) => {
    const before = await snapshot();
    const res = await call(anon, c);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(await snapshot()).toEqual(before);
  });

  it("stop-impersonating without a session: 401", async () => {
    const res = await anon.post("/admin/stop-impersonating");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it("a non-admin cannot make themselves admin (docs/security.md)", async () => {
    const res = await user.browser.post("/admin/set-role", { userId: user.id, role: "admin" });
    expect(res.status).toBe(403);
    expect((await userDoc(t, user.id))?.role).toBeUndefined();
  });

  it("the admin role passes the same guard (read list-users)", async () => {
    const res = await admin.browser.get<{ total: number }>("/admin/list-users");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
  });
});

describe("every admin endpoint reads the caller from the database", () => {
  it("each is sensitive (never the cookie cache) and needs a session (or is has-permission)", () => {
    // 18, the passkeys of a user: list-user-passkeys, remove-user-passkey, the event listing
    // list-events (features/events) and a user's recent mails, list-user-mails (features/mail-outbox).
    expect(adminEndpoints).toHaveLength(22);
    // The admin pages' reads of issue 14 (linked accounts, dashboard totals): server code only; they
    // refuse a call without a session all the same (linked-accounts.test.ts, stats.test.ts).
    const serverOnly = ["/admin/list-user-accounts", "/admin/stats"];
    for (const endpoint of adminEndpoints) {
      expect(endpoint.path.startsWith("/admin/"), endpoint.path).toBe(true);
      expect(endpoint.sensitive, endpoint.path).toBe(true);
      expect(endpoint.auth, endpoint.path).toBe(
        endpoint.path === "/admin/has-permission"
          ? "optional"
          : serverOnly.includes(endpoint.path)
            ? "server-only"
            : "session",
      );
    }
  });
});

describe("roles are read from the database on every admin request", () => {
  it("a demoted admin is refused on the very next request, even with the cookie cache on", async () => {
    const cached = await freshTestAuth({ session: { cookieCache: { enabled: true } } });
    const boss = await signUpPerson(cached, "boss", "admin");
    expect((await boss.browser.get("/admin/list-users")).status).toBe(200);
    await cached.db.collection("users").updateOne({ email: boss.email }, { $set: { role: "user" } });
    const res = await boss.browser.get("/admin/list-users");
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it("listed adminUserIds bypass the role check", async () => {
    const rootId = new ObjectId();
    const listed = await freshTestAuth({ admin: { adminUserIds: [rootId.toHexString()] } });
    const now = listed.now();
    await listed.db.collection("users").insertOne({
      _id: rootId,
      email: "root@example.com",
      emailVerified: true,
      name: "Root",
      image: null,
      role: "user",
      createdAt: now,
      updatedAt: now,
    });
    const token = "r".repeat(32);
    await listed.db.collection("sessions").insertOne({
      _id: sessionIdOf(token),
      userId: rootId,
      token,
      expiresAt: new Date(now.getTime() + 3600_000),
      createdAt: now,
      updatedAt: now,
      ipAddress: null,
      userAgent: null,
      activeOrganizationId: null,
      dontRemember: false,
    });
    const browser = new TestBrowser(listed.auth);
    browser.cookies.set(SESSION_COOKIE, signValue(token, TEST_SECRET));
    const res = await browser.get<{ total: number }>("/admin/list-users");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
  });

  it("custom roles by statements: a support role may list and get users but not ban", async () => {
    const custom = await freshTestAuth({
      admin: {
        roles: {
          admin: { user: ["list", "ban"] },
          user: {},
          support: { user: ["list", "get"] },
        },
      },
    });
    const helper = await signUpPerson(custom, "helper", "support");
    const target = await signUpPerson(custom, "target");
    expect((await helper.browser.get("/admin/list-users")).status).toBe(200);
    expect((await helper.browser.get(`/admin/get-user?id=${target.id}`)).status).toBe(200);
    const ban = await helper.browser.post("/admin/ban-user", { userId: target.id });
    expect(ban.status).toBe(403);
    expect((await userDoc(custom, target.id))?.banned).toBeUndefined();
  });

  it("a role configuration granting an unknown action fails at startup, naming it", async () => {
    await expect(
      createTestAuth({ admin: { roles: { admin: { user: ["fly"] }, user: {} } } }),
    ).rejects.toThrow(/admin\.roles: role "admin" grants unknown action "user:fly"/);
    await expect(createTestAuth({ admin: { defaultRole: "member" } })).rejects.toThrow(
      /role "member" is not defined/,
    );
  });
});
