import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  auditEvents,
  FORBIDDEN,
  mutableRoles,
  type Person,
  SUPER_ROLES,
  sessionCount,
  signUpPerson,
  useAdminCast,
  userDoc,
} from "#test/admin.ts";
import { DEFAULT_ADMIN_ROLES } from "./access.ts";

/**
 * Review findings 1, 2 and 6: an admin cannot take over another admin (set-password, email, ban,
 * remove, set-role need manage-admins; a listed admin id only yields to another listed id), nor
 * hand out a role with more rights than they hold. Each refusal leaves the database as it was.
 */
const ROLES = { ...SUPER_ROLES, support: { session: ["list"] } };

const { t, admin, user, setUp } = useAdminCast({ open: "by-set-up", overrides: { admin: { roles: ROLES } } });

function credentialHash(id: string) {
  return t.db
    .collection("accounts")
    .findOne({ userId: new ObjectId(id), providerId: "credential" })
    .then((account) => account?.password);
}

/** Every way of taking over an admin: path and body for the victim's id. */
const TAKEOVERS: Record<string, (id: string) => [string, Record<string, unknown>]> = {
  "set-user-password": (id: string) => [
    "/admin/set-user-password",
    { userId: id, newPassword: "taken over now" },
  ],
  "update-user email": (id: string) => [
    "/admin/update-user",
    { userId: id, data: { email: "thief@example.com" } },
  ],
  "update-user emailVerified": (id: string) => [
    "/admin/update-user",
    { userId: id, data: { emailVerified: true } },
  ],
  "ban-user": (id: string) => ["/admin/ban-user", { userId: id }],
  "remove-user": (id: string) => ["/admin/remove-user", { userId: id }],
  "set-role": (id: string) => ["/admin/set-role", { userId: id, role: "user" }],
};

async function expectRefusedAndUnchanged(actor: Person, victim: Person) {
  const before = await userDoc(t, victim.id);
  const hash = await credentialHash(victim.id);
  const sessions = await sessionCount(t, victim.id);
  for (const [label, build] of Object.entries(TAKEOVERS)) {
    const [path, body] = build(victim.id);
    const res = await actor.browser.post(path, body);
    expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 403, body: FORBIDDEN });
  }
  expect(await userDoc(t, victim.id)).toEqual(before);
  expect(await credentialHash(victim.id)).toBe(hash);
  expect(await sessionCount(t, victim.id)).toBe(sessions);
  expect(await auditEvents(t)).toEqual([]);
}

describe("acting on another admin", () => {
  it("an admin cannot set the password, email, ban, remove or re-role another admin", async () => {
    await setUp();
    const other = await signUpPerson(t, "other", "admin");
    await expectRefusedAndUnchanged(admin, other);
  });

  it("a holder of a custom role granting any admin-area action is protected too", async () => {
    await setUp();
    const support = await signUpPerson(t, "support", "support");
    await expectRefusedAndUnchanged(admin, support);
    const res = await admin.browser.post("/admin/impersonate-user", { userId: support.id });
    expect(res.body).toEqual({ code: "CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" });
    expect(await t.db.collection("sessions").countDocuments({ impersonatedBy: new ObjectId(admin.id) })).toBe(
      0,
    );
  });

  it("a name-only update of another admin is refused too; an ordinary user is managed as before", async () => {
    await setUp();
    const other = await signUpPerson(t, "other", "admin");
    const renamed = await admin.browser.post("/admin/update-user", {
      userId: other.id,
      data: { name: "Renamed" },
    });
    expect([renamed.status, renamed.body]).toEqual([403, FORBIDDEN]);
    expect(await userDoc(t, other.id)).toMatchObject({ name: "other", email: other.email });
    const res = await admin.browser.post("/admin/ban-user", { userId: user.id });
    expect(res.status).toBe(200);
    expect(await userDoc(t, user.id)).toMatchObject({ banned: true });
  });

  it("manage-admins (superadmin) may ban another admin", async () => {
    await setUp();
    const boss = await signUpPerson(t, "boss", "superadmin");
    const res = await boss.browser.post("/admin/ban-user", { userId: admin.id });
    expect(res.status).toBe(200);
    expect(await userDoc(t, admin.id)).toMatchObject({ banned: true });
    expect(await sessionCount(t, admin.id)).toBe(0);
  });

  it("an admin may still set their own password and email", async () => {
    await setUp();
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: admin.id,
      newPassword: "my own new password",
    });
    expect(res.status).toBe(200);
    const moved = await admin.browser.post("/admin/update-user", {
      userId: admin.id,
      data: { email: "admin2@example.com" },
    });
    expect(moved.status).toBe(200);
    expect(await userDoc(t, admin.id)).toMatchObject({ email: "admin2@example.com" });
  });
});

describe("listed admin ids", () => {
  it("only another listed admin acts on a listed admin, even with manage-admins", async () => {
    const listed = new ObjectId();
    const peer = new ObjectId();
    await setUp({ admin: { roles: ROLES, adminUserIds: [listed.toHexString(), peer.toHexString()] } });
    const root = await signUpPerson(t, "root");
    const root2 = await signUpPerson(t, "root2");
    // The listed ids are fixed at startup: move the two users onto them.
    for (const [person, id] of [
      [root, listed],
      [root2, peer],
    ] as const) {
      const doc = await userDoc(t, person.id);
      await t.db.collection("users").deleteOne({ _id: new ObjectId(person.id) });
      await t.db.collection("users").insertOne({ ...doc, _id: id });
      await t.db
        .collection("sessions")
        .updateMany({ userId: new ObjectId(person.id) }, { $set: { userId: id } });
      await t.db
        .collection("accounts")
        .updateMany({ userId: new ObjectId(person.id) }, { $set: { userId: id } });
      person.id = id.toHexString();
    }
    const boss = await signUpPerson(t, "boss", "superadmin");
    await expectRefusedAndUnchanged(boss, root);
    const res = await root2.browser.post("/admin/ban-user", { userId: root.id });
    expect(res.status).toBe(200);
    expect(await userDoc(t, root.id)).toMatchObject({ banned: true });
  });
});

describe("granting roles", () => {
  it("an admin cannot grant a role with rights they lack, to another or to themselves", async () => {
    await setUp();
    for (const userId of [user.id, admin.id]) {
      const res = await admin.browser.post("/admin/set-role", { userId, role: ["user", "superadmin"] });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect(await userDoc(t, user.id)).not.toHaveProperty("role");
    expect(await userDoc(t, admin.id)).toMatchObject({ role: "admin" });
    const created = await admin.browser.post("/admin/create-user", {
      email: "new@example.com",
      name: "New",
      role: "superadmin",
    });
    expect(created.body).toEqual(FORBIDDEN);
    expect(await t.db.collection("users").countDocuments({ email: "new@example.com" })).toBe(0);
    expect(await auditEvents(t)).toEqual([]);
  });

  it("a role within the caller's rights is granted; a superadmin grants superadmin", async () => {
    await setUp();
    expect((await admin.browser.post("/admin/set-role", { userId: user.id, role: "support" })).status).toBe(
      200,
    );
    expect(await userDoc(t, user.id)).toMatchObject({ role: "support" });
    const boss = await signUpPerson(t, "boss", "superadmin");
    const created = await boss.browser.post("/admin/create-user", {
      email: "new@example.com",
      name: "New",
      role: "superadmin",
    });
    expect(created.status).toBe(200);
    expect(await t.db.collection("users").findOne({ email: "new@example.com" })).toMatchObject({
      role: "superadmin",
    });
  });

  it("the default roles are unchanged: admin still grants admin", async () => {
    await setUp({ admin: { roles: mutableRoles(DEFAULT_ADMIN_ROLES) } });
    expect((await admin.browser.post("/admin/set-role", { userId: user.id, role: "admin" })).status).toBe(
      200,
    );
    expect(await userDoc(t, user.id)).toMatchObject({ role: "admin" });
  });
});
