import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  auditEvents,
  FORBIDDEN,
  type Person,
  SUPER_ROLES,
  sessionCount,
  signIn,
  signUpPerson,
  useAdminCast,
  userDoc,
} from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/**
 * Security-hardening issue, finding 6: every admin endpoint that acts on a user applies the one
 * may-manage rule (endpoints/guards.ts requireUserToManage) — session listing and revocation, unban
 * and every update-user field included, not only the takeover paths.
 */
const {
  t,
  admin,
  boss: superadmin,
  setUp,
} = useAdminCast({
  open: "by-set-up",
  overrides: { admin: { roles: SUPER_ROLES } },
  also: { boss: "superadmin" },
});

type Call = (victim: Person, sessionId: string) => [string, Record<string, unknown>];
const CALLS: Record<string, Call> = {
  "list-user-sessions": (victim) => ["/admin/list-user-sessions", { userId: victim.id }],
  "revoke-user-sessions": (victim) => ["/admin/revoke-user-sessions", { userId: victim.id }],
  "revoke-user-session": (_victim, sessionId) => ["/admin/revoke-user-session", { sessionId }],
  "unban-user": (victim) => ["/admin/unban-user", { userId: victim.id }],
  "update-user name": (victim) => ["/admin/update-user", { userId: victim.id, data: { name: "Demoted" } }],
  "update-user image": (victim) => [
    "/admin/update-user",
    { userId: victim.id, data: { image: "https://example.com/x.png" } },
  ],
};

async function sessionIdOf(victim: Person): Promise<string> {
  const row = await t.db.collection("sessions").findOne({ userId: new ObjectId(victim.id) });
  return row!._id.toHexString();
}

async function expectEveryCallRefused(actor: Person, victim: Person) {
  // A banned victim, so that unban has something to lift.
  await t.db.collection("users").updateOne({ _id: new ObjectId(victim.id) }, { $set: { banned: true } });
  const before = await userDoc(t, victim.id);
  const sessions = await sessionCount(t, victim.id);
  const sessionId = await sessionIdOf(victim);
  for (const [label, build] of Object.entries(CALLS)) {
    const [path, body] = build(victim, sessionId);
    const res = await actor.browser.post(path, body);
    expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 403, body: FORBIDDEN });
  }
  expect(await userDoc(t, victim.id)).toEqual(before);
  expect(await sessionCount(t, victim.id)).toBe(sessions);
  expect(await auditEvents(t)).toEqual([]);
}

describe("a plain admin cannot act on a higher admin", () => {
  it("list, revoke one or all sessions, unban and update-user of another admin answer 403 and change nothing", async () => {
    await setUp();
    await expectEveryCallRefused(admin, superadmin);
  });

  it("a listed admin id yields only to another listed id, even to a holder of manage-admins", async () => {
    const listed = new ObjectId();
    await setUp({ admin: { roles: SUPER_ROLES, adminUserIds: [listed.toHexString()] } });
    const root = await signUpPerson(t, "root");
    // The listed ids are fixed at startup: move the user onto the listed id.
    const doc = await userDoc(t, root.id);
    await t.db.collection("users").deleteOne({ _id: new ObjectId(root.id) });
    await t.db.collection("users").insertOne({ ...doc, _id: listed });
    await t.db
      .collection("sessions")
      .updateMany({ userId: new ObjectId(root.id) }, { $set: { userId: listed } });
    await expectEveryCallRefused(superadmin, { ...root, id: listed.toHexString() });
  });

  it("allowImpersonatingAdmins does not let a plain admin impersonate a listed admin id", async () => {
    const listed = new ObjectId();
    await setUp({
      admin: { roles: SUPER_ROLES, adminUserIds: [listed.toHexString()], allowImpersonatingAdmins: true },
    });
    const root = await signUpPerson(t, "root");
    const doc = await userDoc(t, root.id);
    await t.db.collection("users").deleteOne({ _id: new ObjectId(root.id) });
    await t.db.collection("users").insertOne({ ...doc, _id: listed });
    const res = await superadmin.browser.post("/admin/impersonate-user", { userId: listed.toHexString() });
    expect([res.status, res.body]).toEqual([
      403,
      { code: "CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" },
    ]);
    expect(await t.db.collection("sessions").countDocuments({ impersonatedBy: { $exists: true } })).toBe(0);
    expect(await auditEvents(t)).toEqual([]);
  });

  it("revoking an impersonation session needs the right to manage the admin behind it", async () => {
    await setUp({ admin: { roles: SUPER_ROLES, allowImpersonatingAdmins: false } });
    const plain = await signUpPerson(t, "plain");
    const started = await superadmin.browser.post("/admin/impersonate-user", { userId: plain.id });
    expect(started.status).toBe(200);
    const impersonation = await t.db
      .collection("sessions")
      .findOne({ impersonatedBy: new ObjectId(superadmin.id) });
    const res = await admin.browser.post("/admin/revoke-user-session", {
      sessionId: impersonation!._id.toHexString(),
    });
    expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    expect(await t.db.collection("sessions").countDocuments({ _id: impersonation!._id })).toBe(1);
    expect((await auditEvents(t)).map((event) => event.action)).toEqual(["impersonation.start"]);
  });

  it("a holder of manage-admins may: the same calls succeed", async () => {
    await setUp();
    const res = await superadmin.browser.post("/admin/list-user-sessions", { userId: admin.id });
    expect(res.status).toBe(200);
    const update = await superadmin.browser.post("/admin/update-user", {
      userId: admin.id,
      data: { name: "Renamed" },
    });
    expect(update.status).toBe(200);
    expect((await userDoc(t, admin.id))?.name).toBe("Renamed");
    const revoked = await superadmin.browser.post("/admin/revoke-user-sessions", { userId: admin.id });
    expect([revoked.status, revoked.body]).toEqual([200, { success: true }]);
    expect(await sessionCount(t, admin.id)).toBe(0);
  });

  it("an admin still acts on ordinary users and on themself; get-user reads any user", async () => {
    await setUp();
    const plain = await signUpPerson(t, "plain");
    await signIn(new TestBrowser(t.auth), plain.email);
    const listed = await admin.browser.post<{ sessions: unknown[] }>("/admin/list-user-sessions", {
      userId: plain.id,
    });
    expect([listed.status, listed.body.sessions.length]).toEqual([200, 2]);
    const own = await admin.browser.post("/admin/update-user", { userId: admin.id, data: { name: "Me" } });
    expect(own.status).toBe(200);
    const read = await admin.browser.get<{ id: string; role: string }>(`/admin/get-user?id=${superadmin.id}`);
    expect([read.status, read.body.id, read.body.role]).toEqual([200, superadmin.id, "superadmin"]);
  });
});
