import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  deleteLinkFrom,
  GONE,
  INTACT,
  membershipRows,
  NO_ORGANIZATION,
  organizationRows,
  SOLE_OWNER,
  userRows,
} from "#test/deletion.ts";
import {
  addMember,
  createOrganization,
  memberRoles,
  type Overrides,
  type SignedIn,
  signIn,
} from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * docs/security.md through POST /delete-user: the only owner of an organization with other
 * members is refused with nothing deleted; an organization the user is alone in goes with them;
 * elsewhere their memberships, team memberships and pending invitations go and the seat is free.
 */
const { t, openAuth } = useTestAuthPerTest();

const NO_MEMBERSHIPS = { members: 0, teamMembers: 0, invitationsSent: 0 };

async function setUp(overrides: Overrides = {}) {
  await openAuth({
    user: { deleteUser: { enabled: true } },
    organization: { teams: { enabled: true }, ...overrides.organization },
  });
  const [ada, bob, carol] = await Promise.all(["ada", "bob", "carol"].map((name) => signIn(t, name)));
  return { ada: ada!, bob: bob!, carol: carol! };
}

const rowsOf = (user: SignedIn) => userRows(t.db, new ObjectId(user.userId));

async function createTeamWith(owner: SignedIn, organizationId: string, member: SignedIn): Promise<string> {
  const team = await owner.browser.post<{ id: string }>("/organization/create-team", {
    name: "Core",
    organizationId,
  });
  expect(team.status).toBe(200);
  const joined = await owner.browser.post("/organization/add-team-member", {
    teamId: team.body.id,
    userId: member.userId,
    organizationId,
  });
  expect(joined.status).toBe(200);
  return team.body.id;
}

async function invite(inviter: SignedIn, organizationId: string, email: string): Promise<void> {
  const res = await inviter.browser.post("/organization/invite-member", {
    email,
    role: "member",
    organizationId,
  });
  expect(res.status).toBe(200);
}

describe("POST /delete-user and the user's organizations", () => {
  it("refuses the only owner of an organization with other members, before deleting anything", async () => {
    const { ada, bob } = await setUp();
    const shared = await createOrganization(ada, "shared");
    await addMember(t, shared, bob, "member");
    const alone = await createOrganization(ada, "alone");
    await invite(ada, shared, "dave@example.com");
    const before = {
      shared: await organizationRows(t.db, shared),
      alone: await organizationRows(t.db, alone),
    };

    const res = await ada.browser.post("/delete-user", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual(SOLE_OWNER);
    expect(await rowsOf(ada)).toEqual(INTACT);
    // Not even the organization she is alone in, nor her invitation, went.
    expect({
      shared: await organizationRows(t.db, shared),
      alone: await organizationRows(t.db, alone),
    }).toEqual(before);
    expect(await memberRoles(t, shared)).toEqual({ [ada.userId]: "owner", [bob.userId]: "member" });
    expect((await ada.browser.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(ada.userId);
  });

  it("deletes once ownership is transferred: the organization stays with its new owner", async () => {
    const { ada, bob } = await setUp();
    const shared = await createOrganization(ada, "shared");
    const bobMember = await addMember(t, shared, bob, "member");
    expect((await ada.browser.post("/delete-user", {})).status).toBe(400);
    const promoted = await ada.browser.post("/organization/update-member-role", {
      memberId: bobMember,
      role: "owner",
      organizationId: shared,
    });
    expect(promoted.status).toBe(200);

    const res = await ada.browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await rowsOf(ada)).toEqual(GONE);
    expect(await memberRoles(t, shared)).toEqual({ [bob.userId]: "owner" });
    expect((await organizationRows(t.db, shared)).organizations).toBe(1);
  });

  it("deletes an organization the user is alone in with all its rows; other organizations untouched", async () => {
    const { ada, bob, carol } = await setUp();
    const alone = await createOrganization(ada, "alone");
    await createTeamWith(ada, alone, ada);
    await invite(ada, alone, "dave@example.com");
    const other = await createOrganization(bob, "other");
    await addMember(t, other, carol, "member");
    await createTeamWith(bob, other, carol);
    const otherBefore = await organizationRows(t.db, other);
    expect(await organizationRows(t.db, alone)).toEqual({
      organizations: 1,
      members: 1,
      invitations: 1,
      teams: 1,
      teamMembers: 1,
    });

    const res = await ada.browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(await rowsOf(ada)).toEqual(GONE);
    expect(await organizationRows(t.db, alone)).toEqual(NO_ORGANIZATION);
    expect(await membershipRows(t.db, ada.userId)).toEqual(NO_MEMBERSHIPS);
    expect(await organizationRows(t.db, other)).toEqual(otherBefore);
    // The slug is free again.
    expect((await bob.browser.post("/organization/check-slug", { slug: "alone" })).status).toBe(200);
  });

  it("removes an ordinary member: membership, team membership and invitations they sent; the seat is free", async () => {
    const { ada, bob, carol } = await setUp({ organization: { membershipLimit: 2 } });
    const org = await createOrganization(ada, "org");
    await addMember(t, org, bob, "admin");
    await createTeamWith(ada, org, bob);
    await invite(bob, org, "dave@example.com");
    await invite(ada, org, "erin@example.com");
    await expect(
      t.auth.api.addMember({ body: { organizationId: org, userId: carol.userId, role: "member" } }),
    ).rejects.toMatchObject({ code: "MEMBERSHIP_LIMIT_REACHED" });

    const res = await bob.browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(await rowsOf(bob)).toEqual(GONE);
    expect(await membershipRows(t.db, bob.userId)).toEqual(NO_MEMBERSHIPS);
    expect(await organizationRows(t.db, org)).toEqual({
      organizations: 1,
      members: 1,
      invitations: 1, // Ada's, still pending
      teams: 1,
      teamMembers: 0,
    });
    expect(await memberRoles(t, org)).toEqual({ [ada.userId]: "owner" });
    // Bob's seat is reusable, and dave can be invited afresh (the pending slot went with the row).
    await addMember(t, org, carol, "member");
    expect(await memberRoles(t, org)).toEqual({ [ada.userId]: "owner", [carol.userId]: "member" });
    await invite(ada, org, "dave@example.com");
  });

  it("deletes a co-owner: the other owner and the members stay", async () => {
    const { ada, bob, carol } = await setUp();
    const org = await createOrganization(ada, "org");
    await addMember(t, org, bob, "owner");
    await addMember(t, org, carol, "admin,owner");
    await addMember(t, org, (await signIn(t, "dave")) as SignedIn, "member");

    const res = await ada.browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(await rowsOf(ada)).toEqual(GONE);
    const roles = await memberRoles(t, org);
    expect(Object.keys(roles)).toHaveLength(3);
    expect(roles[ada.userId]).toBeUndefined();
    expect([roles[bob.userId], roles[carol.userId]]).toEqual(["owner", "admin,owner"]);
  });

  it("refuses to mail a confirmation link to a sole owner (no mail, no token)", async () => {
    await openAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    });
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    const org = await createOrganization(ada, "org");
    await addMember(t, org, bob, "member");

    const res = await ada.browser.post("/delete-user", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual(SOLE_OWNER);
    expect(t.outbox.latestTo(ada.email)).toBeNull();
    expect(await rowsOf(ada)).toEqual(INTACT);
  });

  it("refuses a mailed token given in the body to a user who became the sole owner, and keeps the token", async () => {
    await openAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    });
    const [ada, bob, carol] = [await signIn(t, "ada"), await signIn(t, "bob"), await signIn(t, "carol")];
    const org = await createOrganization(ada, "org");
    await addMember(t, org, bob, "owner");
    await addMember(t, org, carol, "member");
    expect((await ada.browser.post("/delete-user", {})).status).toBe(200);
    const { token } = deleteLinkFrom(t.outbox.latestTo(ada.email)?.text ?? "");
    expect((await bob.browser.post("/organization/leave", { organizationId: org })).status).toBe(200);

    const res = await ada.browser.post("/delete-user", { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(SOLE_OWNER);
    expect(await rowsOf(ada)).toEqual({ ...INTACT, tokens: 1 });
    expect(await memberRoles(t, org)).toEqual({ [ada.userId]: "owner", [carol.userId]: "member" });
  });
});
