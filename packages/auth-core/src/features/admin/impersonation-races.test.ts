import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { FORBIDDEN, PASSWORD, SUPER_ROLES, sessionCount, signIn, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/**
 * Impersonation sessions outliving the admin's right (review findings 4 and 5), against the real
 * FerretDB server. The interleaving Promise.all hits only sometimes is forced: the demotion runs
 * just before the impersonation session's insert reaches the database.
 */
const { t, admin, user, boss } = useAdminCast({
  overrides: { admin: { roles: SUPER_ROLES } },
  also: { boss: "superadmin" },
});

type InsertOne = (doc: never) => Promise<unknown>;
/** Runs `before` once, just before the next session insert. */
function beforeNextSessionInsert(before: () => Promise<unknown>) {
  const target = t.auth.context.collections.sessions as unknown as { insertOne: InsertOne };
  const original = target.insertOne.bind(target);
  target.insertOne = async (doc: never) => {
    target.insertOne = original;
    await before();
    return original(doc);
  };
}

const impersonations = (adminId: string) =>
  t.db.collection("sessions").countDocuments({ impersonatedBy: new ObjectId(adminId) });

async function impersonate(): Promise<void> {
  expect((await admin.browser.post("/admin/impersonate-user", { userId: user.id })).status).toBe(200);
  expect(await impersonations(admin.id)).toBe(1);
}

describe("impersonate-user racing the admin's demotion", () => {
  const losses = {
    "demoted to user": () => boss.browser.post("/admin/set-role", { userId: admin.id, role: "user" }),
    banned: () => boss.browser.post("/admin/ban-user", { userId: admin.id }),
  };
  for (const [label, lose] of Object.entries(losses)) {
    it(`${label} meanwhile: 403, no impersonation session left, no cookies swapped`, async () => {
      beforeNextSessionInsert(async () => expect((await lose()).status).toBe(200));
      const res = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect(await impersonations(admin.id)).toBe(0);
      expect(await sessionCount(t, user.id)).toBe(1);
      const own = await admin.browser.get<{ user: { id: string } } | null>("/get-session");
      expect(own.body?.user.id ?? null).toBe(label === "banned" ? null : admin.id);
    });
  }
});

describe("ending an admin's sessions ends their impersonations", () => {
  it("admin revoke-user-sessions on the admin", async () => {
    await impersonate();
    const res = await boss.browser.post("/admin/revoke-user-sessions", { userId: admin.id });
    expect(res.status).toBe(200);
    expect(await sessionCount(t, admin.id)).toBe(0);
    expect(await impersonations(admin.id)).toBe(0);
    expect(await sessionCount(t, user.id)).toBe(1);
  });

  it("the admin's own /revoke-sessions", async () => {
    const second = new TestBrowser(t.auth);
    await signIn(second, admin.email);
    await impersonate();
    expect((await second.post("/revoke-sessions", {})).status).toBe(200);
    expect(await sessionCount(t, admin.id)).toBe(0);
    expect(await impersonations(admin.id)).toBe(0);
  });

  it("the admin's change-password with revokeOtherSessions", async () => {
    const second = new TestBrowser(t.auth);
    await signIn(second, admin.email);
    await impersonate();
    const res = await second.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "another long password",
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    expect(await impersonations(admin.id)).toBe(0);
    expect(await sessionCount(t, admin.id)).toBe(1);
  });
});
