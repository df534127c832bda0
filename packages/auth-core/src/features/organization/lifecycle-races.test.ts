import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  addMember,
  beforeNextInsert,
  errorBody,
  type Fixture,
  signIn,
  useFixtures,
} from "#test/organization.ts";

/**
 * Writes racing an organization's deletion, invitations whose inviter lost the right to invite, and
 * a stale cookie cache (review of issue 3), against the real FerretDB server. An interleaving that
 * Promise.all hits only sometimes is forced: the deletion runs (through its endpoint) just before
 * the racing request's own insert reaches the database.
 */
const fixture = useFixtures();

const ORGANIZATION_NOT_FOUND = {
  status: 400,
  body: errorBody("ORGANIZATION_NOT_FOUND", "Organization not found"),
};
const INVITER_GONE = {
  status: 400,
  body: errorBody("INVITER_NO_LONGER_MEMBER", "Inviter is no longer a member"),
};

async function deleteOrganization(f: Fixture): Promise<void> {
  const res = await f.O.browser.post("/organization/delete", { organizationId: f.A });
  expect(res.status).toBe(200);
}
const byOrganization = (f: Fixture) => ({ organizationId: new ObjectId(f.A) });

describe("writes racing the organization's deletion", () => {
  it("accept: the member row and the session write are taken back", async () => {
    const f = await fixture();
    const sent = await f.O.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: f.A,
      email: "new@example.com",
      role: "member",
    });
    const invitee = await signIn(f.t, "new");
    beforeNextInsert(f, "members", () => deleteOrganization(f));
    const res = await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id });
    expect(res).toMatchObject(ORGANIZATION_NOT_FOUND);
    expect(await f.t.db.collection("organizations").countDocuments({ _id: new ObjectId(f.A) })).toBe(0);
    expect(await f.t.db.collection("members").countDocuments(byOrganization(f))).toBe(0);
    expect(await activeOrganizationOf(f.t, invitee.userId)).toEqual([null]);
    expect(await f.t.db.collection("sessions").countDocuments({ activeOrganizationId: f.A })).toBe(0);
  });

  it("accept and delete in parallel: nothing is left pointing at the deleted organization", async () => {
    const f = await fixture();
    const invitee = await signIn(f.t, "new");
    for (let round = 0; round < 6; round++) {
      const organizationId = (
        await f.O.browser.post<{ id: string }>("/organization/create", { name: "R", slug: `round-${round}` })
      ).body.id;
      const sent = await f.O.browser.post<{ id: string }>("/organization/invite-member", {
        organizationId,
        email: invitee.email,
        role: "member",
      });
      const [accepted, deleted] = await Promise.all([
        invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
        f.O.browser.post("/organization/delete", { organizationId }),
      ]);
      expect(deleted.status, `round ${round}`).toBe(200);
      expect([200, 400]).toContain(accepted.status);
      const id = new ObjectId(organizationId);
      expect(await f.t.db.collection("members").countDocuments({ organizationId: id })).toBe(0);
      expect(await f.t.db.collection("invitations").countDocuments({ organizationId: id })).toBe(0);
      expect(
        await f.t.db.collection("sessions").countDocuments({ activeOrganizationId: organizationId }),
      ).toBe(0);
    }
  });

  it("create-team: the team is taken back", async () => {
    const f = await fixture({ organization: { teams: { enabled: true } } });
    beforeNextInsert(f, "teams", () => deleteOrganization(f));
    const res = await f.O.browser.post("/organization/create-team", { organizationId: f.A, name: "Late" });
    expect(res).toMatchObject(ORGANIZATION_NOT_FOUND);
    expect(await f.t.db.collection("teams").countDocuments({})).toBe(0);
  });

  it("invite-member: the invitation is taken back and no mail goes out", async () => {
    const f = await fixture();
    beforeNextInsert(f, "invitations", () => deleteOrganization(f));
    const res = await f.O.browser.post("/organization/invite-member", {
      organizationId: f.A,
      email: "late@example.com",
      role: "member",
    });
    expect(res).toMatchObject(ORGANIZATION_NOT_FOUND);
    expect(await f.t.db.collection("invitations").countDocuments({})).toBe(0);
    expect(f.t.outbox.latestTo("late@example.com")).toBeNull();
  });
});

describe("an inviter who may no longer invite", () => {
  async function invitedByAdmin(f: Fixture, role: string) {
    const sent = await f.D.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: f.A,
      email: "new@example.com",
      role,
    });
    expect(sent.status).toBe(200);
    return { id: sent.body.id, invitee: await signIn(f.t, "new") };
  }
  async function expectRefusedEverywhere(
    f: Fixture,
    id: string,
    invitee: Awaited<ReturnType<typeof signIn>>,
  ) {
    expect(await invitee.browser.get(`/organization/get-invitation?id=${id}`)).toMatchObject(INVITER_GONE);
    expect(await invitee.browser.post("/organization/accept-invitation", { invitationId: id })).toMatchObject(
      INVITER_GONE,
    );
    expect(await invitee.browser.post("/organization/reject-invitation", { invitationId: id })).toMatchObject(
      INVITER_GONE,
    );
    expect(await f.t.db.collection("members").countDocuments({ userId: new ObjectId(invitee.userId) })).toBe(
      0,
    );
    expect(await f.t.db.collection("invitations").findOne({ _id: new ObjectId(id) })).toMatchObject({
      status: "pending",
    });
    expect(
      await f.t.db.collection("verifications").countDocuments({ identifier: /^invitation-claim:/ }),
    ).toBe(0);
  }

  it("an admin removed after inviting: get, accept and reject all refuse", async () => {
    const f = await fixture();
    const { id, invitee } = await invitedByAdmin(f, "admin");
    expect(
      (await f.O.browser.post("/organization/remove-member", { memberIdOrEmail: f.members.D })).status,
    ).toBe(200);
    await expectRefusedEverywhere(f, id, invitee);
  });

  it("an admin demoted to member after inviting an admin: get, accept and reject all refuse", async () => {
    const f = await fixture();
    const { id, invitee } = await invitedByAdmin(f, "admin");
    expect(
      (await f.O.browser.post("/organization/update-member-role", { memberId: f.members.D, role: "member" }))
        .status,
    ).toBe(200);
    await expectRefusedEverywhere(f, id, invitee);
  });

  it("an inviter who still may invite that role: accept goes through", async () => {
    const f = await fixture();
    const { id, invitee } = await invitedByAdmin(f, "member");
    const res = await invitee.browser.post("/organization/accept-invitation", { invitationId: id });
    expect(res).toMatchObject({ status: 200, body: { member: { role: "member", organizationId: f.A } } });
  });
});

describe("stale cookie cache and lowered team limits", () => {
  it("set-active-team {teamId: null} by a removed member does not put the organization back", async () => {
    const f = await fixture({
      session: { cookieCache: { enabled: true } },
      organization: { teams: { enabled: true } },
    });
    expect(await activeOrganizationOf(f.t, f.M.userId)).toEqual([f.A]);
    const removed = await f.O.browser.post("/organization/remove-member", { memberIdOrEmail: f.members.M });
    expect(removed.status).toBe(200);
    expect(await activeOrganizationOf(f.t, f.M.userId)).toEqual([null]);
    const res = await f.M.browser.post("/organization/set-active-team", { teamId: null });
    expect(res).toMatchObject({ status: 200, body: null });
    expect(await activeOrganizationOf(f.t, f.M.userId)).toEqual([null]);
  });

  it("parallel team adds never exceed a maximumMembersPerTeam lowered below the seats in use", async () => {
    const f = await fixture({ organization: { teams: { enabled: true, maximumMembersPerTeam: 3 } } });
    const team = await f.O.browser.post<{ id: string }>("/organization/create-team", {
      organizationId: f.A,
      name: "Core",
    });
    const teamId = new ObjectId(team.body.id);
    // Two members in seats 5 and 6, as if the limit had been 10 and the first ones had left.
    for (const [i, user] of [f.O, f.D].entries())
      await f.t.db.collection("teamMembers").insertOne({
        _id: new ObjectId(),
        teamId,
        organizationId: new ObjectId(f.A),
        userId: new ObjectId(user.userId),
        createdAt: f.t.now(),
        seat: 5 + i,
      });
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => signIn(f.t, `tm${i}`)));
    for (const user of users) await addMember(f.t, f.A, user, "member");
    const results = await Promise.all(
      users.map((user) =>
        f.O.browser.post("/organization/add-team-member", { teamId: team.body.id, userId: user.userId }),
      ),
    );
    const added = results.filter((r) => r.status === 200).length;
    expect(added).toBeLessThanOrEqual(1);
    for (const res of results.filter((r) => r.status !== 200))
      expect(res).toMatchObject({
        status: 403,
        body: errorBody("TEAM_MEMBER_LIMIT_REACHED", "Team member limit reached"),
      });
    expect(await f.t.db.collection("teamMembers").countDocuments({ teamId })).toBe(2 + added);
  });
});
