import { ObjectId } from "mongodb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  auditEvents,
  createCast,
  type Person,
  sessionCount,
  signIn,
  signUpPerson,
  userDoc,
} from "../../../../../tests/support/admin.ts";
import { TestBrowser } from "../../../../../tests/support/browser.ts";
import { createTestAuth, type TestAuth } from "../../../../../tests/support/test-auth.ts";

/**
 * Review findings 7-10: set-user-password ends the user's sessions (matrix J15), the audit gaps,
 * the multi-role list filter and the token-free session listing — each with the database checked.
 */
let t: TestAuth;
let admin: Person;
let user: Person;
beforeEach(async () => {
  t = await createTestAuth();
  ({ admin, user } = await createCast(t));
});
afterEach(() => t.close());

const oid = (id: string) => new ObjectId(id);

describe("set-user-password ends the user's sessions (finding 7)", () => {
  it("every session of the target goes; the audit event says how many", async () => {
    await signIn(new TestBrowser(t.auth), user.email);
    expect(await sessionCount(t, user.id)).toBe(2);
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(200);
    expect(await sessionCount(t, user.id)).toBe(0);
    expect((await user.browser.get("/get-session")).body).toBeNull();
    expect(await sessionCount(t, admin.id)).toBe(1);
    const [event] = await auditEvents(t, { action: "user.set-password" });
    expect(event).toMatchObject({
      actorId: oid(admin.id),
      subjectId: oid(user.id),
      details: { sessionsRevoked: 2, impersonationsRevoked: 0, apiKeysRevoked: 0 },
    });
  });

  it("an admin setting their own password keeps the current session, not the others", async () => {
    await signIn(new TestBrowser(t.auth), admin.email);
    expect(await sessionCount(t, admin.id)).toBe(2);
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: admin.id,
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(200);
    expect(await sessionCount(t, admin.id)).toBe(1);
    expect((await admin.browser.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(admin.id);
  });
});

describe("audit gaps (finding 8)", () => {
  it("update-user records the email move (old and new) and emailVerified", async () => {
    const res = await admin.browser.post("/admin/update-user", {
      userId: user.id,
      data: { email: "moved@example.com", emailVerified: true },
    });
    expect(res.status).toBe(200);
    expect(await userDoc(t, user.id)).toMatchObject({ email: "moved@example.com", emailVerified: true });
    const [event] = await auditEvents(t, { action: "user.update" });
    expect(event).toMatchObject({
      actorId: oid(admin.id),
      subjectId: oid(user.id),
      details: {
        fields: ["email", "emailVerified"],
        fromEmail: user.email,
        toEmail: "moved@example.com",
        fromEmailVerified: false,
        toEmailVerified: true,
      },
    });
  });

  it("revoke-user-session and revoke-user-sessions are recorded", async () => {
    const other = new TestBrowser(t.auth);
    const signedIn = await signIn(other, user.email);
    const session = await t.db.collection("sessions").findOne({ token: signedIn.body.token });
    expect(
      (await admin.browser.post("/admin/revoke-user-session", { sessionId: String(session!._id) })).status,
    ).toBe(200);
    expect(await t.db.collection("sessions").countDocuments({ _id: session!._id })).toBe(0);
    expect((await admin.browser.post("/admin/revoke-user-sessions", { userId: user.id })).status).toBe(200);
    expect(await sessionCount(t, user.id)).toBe(0);
    const events = await auditEvents(t, { subjectId: oid(user.id) });
    expect(events.map((event) => [event.action, event.details])).toEqual([
      ["session.revoke", { sessionId: String(session!._id), impersonatedBy: null }],
      ["session.revoke-all", { sessions: 1, impersonations: 0 }],
    ]);
  });
});

describe("revoke-user-session by id (finding 10)", () => {
  it("list-user-sessions shows ids and no token; the id revokes exactly that session", async () => {
    const second = new TestBrowser(t.auth);
    const signedIn = await signIn(second, user.email);
    const res = await admin.browser.post<{ sessions: Record<string, unknown>[] }>(
      "/admin/list-user-sessions",
      {
        userId: user.id,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
    expect(res.body.sessions.every((session) => !("token" in session))).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(signedIn.body.token);
    const id = res.body.sessions[0]!.id as string;
    expect((await admin.browser.post("/admin/revoke-user-session", { sessionId: id })).status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments({ _id: oid(id) })).toBe(0);
    expect(await sessionCount(t, user.id)).toBe(1);
  });

  it("parallel revocations of one session: exactly one succeeds and is recorded", async () => {
    const signedIn = await signIn(new TestBrowser(t.auth), user.email);
    const session = await t.db.collection("sessions").findOne({ token: signedIn.body.token });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        admin.browser.post(
          "/admin/revoke-user-session",
          index % 2 === 0 ? { sessionId: String(session!._id) } : { sessionToken: signedIn.body.token },
        ),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(await t.db.collection("sessions").countDocuments({ _id: session!._id })).toBe(0);
    expect(await sessionCount(t, user.id)).toBe(1);
    expect(await auditEvents(t, { action: "session.revoke" })).toHaveLength(1);
  });

  it.each([
    [{ sessionId: "000000000000000000000000" }, 400],
    [{ sessionId: "not-an-id" }, 400],
    [{}, 400],
    [{ sessionId: "000000000000000000000000", sessionToken: "x" }, 400],
  ])("%j → %i, nothing deleted", async (body, status) => {
    const res = await admin.browser.post<{ code: string }>("/admin/revoke-user-session", body);
    expect(res.status).toBe(status);
    if ("sessionId" in body && !("sessionToken" in body)) {
      expect(res.body).toEqual({ code: "SESSION_NOT_FOUND", message: "Session not found" });
    }
    expect(await t.db.collection("sessions").countDocuments({})).toBe(2);
  });
});

describe("list-users role filter (finding 9)", () => {
  it("finds multi-role holders, and a role name's dots match literally", async () => {
    await t.close();
    t = await createTestAuth({
      admin: { roles: { admin: { user: ["list"] }, user: {}, support: {}, "a.b": {} } },
    });
    ({ admin, user } = await createCast(t));
    const both = await signUpPerson(t, "both", "support,admin");
    await signUpPerson(t, "axb", "axb");
    await signUpPerson(t, "dotted", "a.b");
    const emails = async (query: string) =>
      (
        await admin.browser.get<{ users: { email: string }[] }>(
          `/admin/list-users?${query}&sortBy=email&sortDirection=asc`,
        )
      ).body.users.map((found) => found.email);
    expect(await emails("filterField=role&filterValue=admin")).toEqual([admin.email, both.email]);
    expect(await emails("filterField=role&filterValue=support")).toEqual([both.email]);
    expect(await emails("filterField=role&filterValue=a.b")).toEqual(["dotted@example.com"]);
    expect(await emails("filterField=role&filterValue=admin&filterOperator=ne")).toEqual([
      "axb@example.com",
      "dotted@example.com",
      user.email,
    ]);
    expect(await emails("filterField=role&filterValue=user")).toEqual([user.email]);
  });
});
