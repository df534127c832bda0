import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { addMember, errorBody, signIn, useFixtures } from "#test/organization.ts";
import type { TestAuth } from "#test/test-auth.ts";
import { coversRoles, DEFAULT_ROLES, type RoleTable } from "./rules.ts";

/**
 * Review finding 12: a caller may change the role of / remove a member only when the caller's roles
 * grant every action the member's roles grant (the creator-role protections stay on top of it).
 */
const fixture = useFixtures();
async function membersSnapshot(t: TestAuth, organizationId: string) {
  return t.db
    .collection("members")
    .find({ organizationId: new ObjectId(organizationId) })
    .sort({ _id: 1 })
    .toArray();
}
const UPDATE_REFUSED = {
  status: 403,
  body: errorBody("MEMBER_UPDATE_NOT_ALLOWED", "not allowed to update this member"),
};
const DELETE_REFUSED = {
  status: 403,
  body: errorBody("MEMBER_DELETE_NOT_ALLOWED", "not allowed to delete this member"),
};

const TABLE: RoleTable = {
  ...DEFAULT_ROLES,
  manager: { member: ["update", "delete"] },
  closer: { organization: ["delete"] },
};

describe("coversRoles", () => {
  it("holds only when the caller's roles grant every action of the target's roles", () => {
    expect(coversRoles("manager", "member", TABLE)).toBe(true);
    expect(coversRoles("manager", "manager", TABLE)).toBe(true);
    expect(coversRoles("manager", "closer", TABLE)).toBe(false);
    expect(coversRoles("manager", "admin", TABLE)).toBe(false);
    expect(coversRoles("admin", "owner", TABLE)).toBe(false);
    expect(coversRoles("admin", "manager,member", TABLE)).toBe(true);
    expect(coversRoles("manager,closer", "closer", TABLE)).toBe(true);
    expect(coversRoles("owner", "admin,closer,manager", TABLE)).toBe(true);
    // A role the table does not define grants nothing; a caller without roles covers only that.
    expect(coversRoles("member", "ghost", TABLE)).toBe(true);
    expect(coversRoles("", "closer", TABLE)).toBe(false);
  });
});

describe("update-member-role and remove-member: nobody acts on a member who can do more", () => {
  const roles = { manager: { member: ["update", "delete"] }, closer: { organization: ["delete"] } };

  it("a member:update/delete role cannot demote or remove a member whose role grants organization:delete", async () => {
    const { t, A } = await fixture({ organization: { roles } });
    const [manager, closer] = [await signIn(t, "manager"), await signIn(t, "closer")];
    await addMember(t, A, manager, "manager");
    const closerId = await addMember(t, A, closer, "closer");
    const before = await membersSnapshot(t, A);
    const update = await manager.browser.post("/organization/update-member-role", {
      organizationId: A,
      memberId: closerId,
      role: "member",
    });
    expect({ status: update.status, body: update.body }).toEqual(UPDATE_REFUSED);
    const remove = await manager.browser.post("/organization/remove-member", {
      organizationId: A,
      memberIdOrEmail: closerId,
    });
    expect({ status: remove.status, body: remove.body }).toEqual(DELETE_REFUSED);
    const byEmail = await manager.browser.post("/organization/remove-member", {
      organizationId: A,
      memberIdOrEmail: closer.email,
    });
    expect({ status: byEmail.status, body: byEmail.body }).toEqual(DELETE_REFUSED);
    expect(await membersSnapshot(t, A)).toEqual(before);
  });

  it("an owner is protected when the creator role is another one; members below the caller are not", async () => {
    const { t, A, D, M, members } = await fixture({
      organization: { creatorRole: "founder", roles },
    });
    const [manager, owner] = [await signIn(t, "manager"), await signIn(t, "owner2")];
    await addMember(t, A, manager, "manager");
    const ownerId = await addMember(t, A, owner, "owner");
    const before = await membersSnapshot(t, A);
    // The default admin lacks organization:delete, so it cannot touch an "owner" either.
    for (const caller of [manager, D]) {
      const update = await caller.browser.post("/organization/update-member-role", {
        organizationId: A,
        memberId: ownerId,
        role: "member",
      });
      expect({ status: update.status, body: update.body }).toEqual(UPDATE_REFUSED);
      const remove = await caller.browser.post("/organization/remove-member", {
        organizationId: A,
        memberIdOrEmail: ownerId,
      });
      expect({ status: remove.status, body: remove.body }).toEqual(DELETE_REFUSED);
    }
    expect(await membersSnapshot(t, A)).toEqual(before);
    // The rule still lets the manager act on a plain member (it grants nothing the manager lacks).
    const demote = await manager.browser.post("/organization/update-member-role", {
      organizationId: A,
      memberId: members.M,
      role: "manager",
    });
    expect(demote.status).toBe(200);
    const removed = await manager.browser.post("/organization/remove-member", {
      organizationId: A,
      memberIdOrEmail: members.M,
    });
    expect(removed.status).toBe(200);
    const after = await t.db.collection("members").findOne({ userId: new ObjectId(M.userId) });
    expect(after).toBeNull();
  });
});
