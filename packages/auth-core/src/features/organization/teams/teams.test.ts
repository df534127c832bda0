import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  errorBody,
  type Fixture,
  type Overrides,
  type SignedIn,
  signIn,
  useFixtures,
} from "#test/organization.ts";
import type { TestAuth } from "#test/test-auth.ts";

const openFixture = useFixtures();
async function fixture(overrides: Overrides = {}): Promise<Fixture> {
  const teams = (overrides.organization as { teams?: object } | undefined)?.teams ?? {};
  return openFixture({
    ...overrides,
    organization: { ...overrides.organization, teams: { enabled: true, ...teams } },
  });
}
async function createTeam(by: SignedIn, organizationId: string, name: string): Promise<string> {
  const res = await by.browser.post<{ id: string }>("/organization/create-team", { organizationId, name });
  expect(res.status).toBe(200);
  return res.body.id;
}
async function teamMembers(t: TestAuth, teamId: string): Promise<string[]> {
  const rows = await t.db
    .collection("teamMembers")
    .find({ teamId: new ObjectId(teamId) })
    .toArray();
  return rows.map((row) => String(row.userId)).sort();
}
const NOT_MEMBER = errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization");
const TEAM_NOT_FOUND = { status: 400, body: errorBody("TEAM_NOT_FOUND", "Team not found") };

describe("teams: create, update, list, remove", () => {
  it("do not exist unless teams are enabled", async () => {
    const f = await openFixture();
    expect(
      (await f.O.browser.post("/organization/create-team", { organizationId: f.A, name: "x" })).status,
    ).toBe(404);
    expect((await f.O.browser.get("/organization/list-teams")).status).toBe(404);
  });

  it("owner and admin create teams; a member cannot; names need a character; the team limit holds", async () => {
    const { t, O, D, M, A } = await fixture({ organization: { teams: { maximumTeams: 2 } } });
    const res = await O.browser.post("/organization/create-team", { organizationId: A, name: " Core " });
    expect(res).toMatchObject({ status: 200, body: { name: "Core", organizationId: A, updatedAt: null } });
    expect(await M.browser.post("/organization/create-team", { organizationId: A, name: "x" })).toMatchObject(
      {
        status: 403,
        body: errorBody("TEAM_CREATE_NOT_ALLOWED", "not allowed to create teams in this organization"),
      },
    );
    expect(
      (await D.browser.post("/organization/create-team", { organizationId: A, name: "  " })).status,
    ).toBe(400);
    await createTeam(D, A, "Second");
    expect(
      await O.browser.post("/organization/create-team", { organizationId: A, name: "Third" }),
    ).toMatchObject({
      status: 400,
      body: errorBody("TEAM_LIMIT_REACHED", "maximum number of teams reached"),
    });
    expect(await t.db.collection("teams").countDocuments({ organizationId: new ObjectId(A) })).toBe(2);
  });

  it("renames with team:update in the team's own organization only", async () => {
    const { t, O, M, D, A, B, P } = await fixture();
    const team = await createTeam(O, A, "Core");
    const theirs = await createTeam(P, B, "B team");
    expect(
      await D.browser.post("/organization/update-team", { teamId: team, data: { name: "Renamed" } }),
    ).toMatchObject({
      status: 200,
      body: { id: team, name: "Renamed" },
    });
    expect(
      await M.browser.post("/organization/update-team", { teamId: team, data: { name: "Mine" } }),
    ).toMatchObject({
      status: 403,
      body: errorBody("TEAM_UPDATE_NOT_ALLOWED", "not allowed to update or delete this team"),
    });
    expect(
      await D.browser.post("/organization/update-team", { teamId: theirs, data: { name: "Taken" } }),
    ).toMatchObject({
      status: 403,
      body: NOT_MEMBER,
    });
    expect(await D.browser.post("/organization/update-team", { teamId: "nope", data: {} })).toMatchObject(
      TEAM_NOT_FOUND,
    );
    expect(await t.db.collection("teams").findOne({ _id: new ObjectId(theirs) })).toMatchObject({
      name: "B team",
    });
    expect(await M.browser.get<{ name: string }[]>("/organization/list-teams")).toMatchObject({
      status: 200,
      body: [{ name: "Renamed" }],
    });
    expect(await D.browser.get(`/organization/list-teams?organizationId=${B}`)).toMatchObject({
      status: 403,
      body: NOT_MEMBER,
    });
  });

  it("removes a team with its memberships; never the last one unless allowed; a member cannot", async () => {
    const { t, O, D, M, A, B, members } = await fixture();
    const first = await createTeam(O, A, "First");
    expect(await O.browser.post("/organization/remove-team", { teamId: first })).toMatchObject({
      status: 400,
      body: errorBody("UNABLE_TO_REMOVE_LAST_TEAM", "Unable to remove last team"),
    });
    const second = await createTeam(O, A, "Second");
    await O.browser.post("/organization/add-team-member", { teamId: second, userId: M.userId });
    await M.browser.post("/organization/set-active-team", { teamId: second });
    expect(await M.browser.post("/organization/remove-team", { teamId: second })).toMatchObject({
      status: 403,
      body: errorBody("TEAM_DELETE_NOT_ALLOWED", "not allowed to delete teams"),
    });
    expect(
      await D.browser.post("/organization/remove-team", { teamId: second, organizationId: B }),
    ).toMatchObject(TEAM_NOT_FOUND);
    expect(await D.browser.post("/organization/remove-team", { teamId: second })).toMatchObject({
      status: 200,
      body: { message: "Team removed successfully." },
    });
    expect(await t.db.collection("teams").countDocuments({ _id: new ObjectId(second) })).toBe(0);
    expect(await teamMembers(t, second)).toEqual([]);
    expect(await t.db.collection("sessions").countDocuments({ activeTeamId: second })).toBe(0);
    expect(members.M).toBeTruthy();
  });

  it("with allowRemovingAllTeams the last team goes too; a member's own team cannot be removed by them", async () => {
    const { t, O, D, A } = await fixture({ organization: { teams: { allowRemovingAllTeams: true } } });
    const team = await createTeam(O, A, "Only");
    await t.db
      .collection("members")
      .updateOne({ userId: new ObjectId(D.userId) }, { $set: { teamId: new ObjectId(team) } });
    expect(await D.browser.post("/organization/remove-team", { teamId: team })).toMatchObject({
      status: 403,
      body: errorBody("TEAM_UPDATE_NOT_ALLOWED", "not allowed to update or delete this team"),
    });
    expect((await O.browser.post("/organization/remove-team", { teamId: team })).status).toBe(200);
    expect(await t.db.collection("teams").countDocuments()).toBe(0);
    // Nobody's member row still points at the removed team.
    expect(await t.db.collection("members").countDocuments({ teamId: new ObjectId(team) })).toBe(0);
  });
});

describe("team members and the active team", () => {
  it("adds members of the organization only, once, within the team limit", async () => {
    const { t, O, D, M, Q, A, B, P } = await fixture({
      organization: { teams: { maximumMembersPerTeam: 2 } },
    });
    const team = await createTeam(O, A, "Core");
    const theirs = await createTeam(P, B, "B team");
    const add = (by: SignedIn, teamId: string, userId: string) =>
      by.browser.post("/organization/add-team-member", { teamId, userId });
    expect(await add(D, team, M.userId)).toMatchObject({
      status: 200,
      body: { teamId: team, userId: M.userId },
    });
    expect(await add(D, team, M.userId)).toMatchObject({
      status: 400,
      body: errorBody("TEAM_MEMBER_ALREADY_EXISTS", "User is already a member of this team"),
    });
    expect(await add(D, team, Q.userId)).toMatchObject({
      status: 400,
      body: errorBody("USER_NOT_MEMBER", "User is not a member of the organization"),
    });
    expect(await add(D, theirs, D.userId)).toMatchObject({ status: 403, body: NOT_MEMBER });
    expect(await add(M, team, D.userId)).toMatchObject({ status: 403 });
    expect((await add(O, team, D.userId)).status).toBe(200);
    expect(await add(O, team, O.userId)).toMatchObject({
      status: 403,
      body: errorBody("TEAM_MEMBER_LIMIT_REACHED", "Team member limit reached"),
    });
    expect(await teamMembers(t, team)).toEqual([D.userId, M.userId].sort());
    expect(await teamMembers(t, theirs)).toEqual([]);
  });

  it("removes a team member and clears the team on their sessions", async () => {
    const { t, O, M, A } = await fixture();
    const team = await createTeam(O, A, "Core");
    await O.browser.post("/organization/add-team-member", { teamId: team, userId: M.userId });
    await M.browser.post("/organization/set-active-team", { teamId: team });
    const res = await O.browser.post("/organization/remove-team-member", { teamId: team, userId: M.userId });
    expect(res).toMatchObject({ status: 200, body: { message: "Team member removed successfully." } });
    expect(await teamMembers(t, team)).toEqual([]);
    expect(await t.db.collection("sessions").countDocuments({ activeTeamId: team })).toBe(0);
    expect(
      await O.browser.post("/organization/remove-team-member", { teamId: team, userId: M.userId }),
    ).toMatchObject({
      status: 400,
      body: errorBody("TEAM_MEMBER_NOT_FOUND", "Team member not found"),
    });
  });

  it("set-active-team needs the team in the active organization and the caller in the team", async () => {
    const { O, M, X, P, A, B } = await fixture({ session: { cookieCache: { enabled: true } } });
    const team = await createTeam(O, A, "Core");
    const theirs = await createTeam(P, B, "B team");
    expect(await M.browser.post("/organization/set-active-team", { teamId: team })).toMatchObject({
      status: 403,
      body: errorBody("TEAM_NOT_A_MEMBER", "User is not a member of the team"),
    });
    await O.browser.post("/organization/add-team-member", { teamId: team, userId: M.userId });
    expect(await M.browser.post("/organization/set-active-team", { teamId: team })).toMatchObject({
      status: 200,
      body: { id: team },
    });
    const session = await M.browser.get<{ session: { activeTeamId?: string; activeOrganizationId: string } }>(
      "/get-session",
    );
    expect(session.body.session).toMatchObject({ activeTeamId: team, activeOrganizationId: A });
    expect(await M.browser.post("/organization/set-active-team", { teamId: theirs })).toMatchObject(
      TEAM_NOT_FOUND,
    );
    expect(await X.browser.post("/organization/set-active-team", { teamId: team })).toMatchObject({
      status: 400,
      body: errorBody("NO_ACTIVE_ORGANIZATION", "No active organization"),
    });
    expect(await M.browser.post("/organization/set-active-team", { teamId: null })).toMatchObject({
      status: 200,
      body: null,
    });
    const cleared = await M.browser.get<{ session: { activeTeamId?: string } }>("/get-session");
    expect(cleared.body.session.activeTeamId).toBeUndefined();
  });

  it("list-team-members for team members and team managers; others refused", async () => {
    const { O, D, M, A } = await fixture();
    const team = await createTeam(O, A, "Core");
    await O.browser.post("/organization/add-team-member", { teamId: team, userId: M.userId });
    expect(await M.browser.get(`/organization/list-team-members?teamId=${team}`)).toMatchObject({
      status: 200,
      body: [{ teamId: team, userId: M.userId }],
    });
    expect((await D.browser.get(`/organization/list-team-members?teamId=${team}`)).status).toBe(200);
    await O.browser.post("/organization/remove-team-member", { teamId: team, userId: M.userId });
    expect(await M.browser.get(`/organization/list-team-members?teamId=${team}`)).toMatchObject({
      status: 403,
    });
    expect(await M.browser.get("/organization/list-team-members")).toMatchObject({
      status: 400,
      body: errorBody("TEAM_NO_ACTIVE_TEAM", "You do not have an active team"),
    });
  });

  it("an invitation with a team: accepting joins the team and makes it active; a full team refuses", async () => {
    const { t, O, A } = await fixture({ organization: { teams: { maximumMembersPerTeam: 1 } } });
    const team = await createTeam(O, A, "Core");
    const sent = await O.browser.post<{ id: string; teamId: string }>("/organization/invite-member", {
      organizationId: A,
      email: "new@example.com",
      role: "member",
      teamId: team,
    });
    expect(sent.body.teamId).toBe(team);
    const other = await O.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: A,
      email: "late@example.com",
      role: "member",
      teamId: [team],
    });
    const invitee = await signIn(t, "new");
    const res = await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id });
    expect(res).toMatchObject({ status: 200, body: { member: { teamId: team } } });
    expect(await teamMembers(t, team)).toEqual([invitee.userId]);
    expect(await t.db.collection("sessions").findOne({ userId: new ObjectId(invitee.userId) })).toMatchObject(
      {
        activeOrganizationId: A,
        activeTeamId: team,
      },
    );
    const late = await signIn(t, "late");
    expect(
      await late.browser.post("/organization/accept-invitation", { invitationId: other.body.id }),
    ).toMatchObject({
      status: 403,
      body: errorBody("TEAM_MEMBER_LIMIT_REACHED", "Team member limit reached"),
    });
    expect(await t.db.collection("members").countDocuments({ userId: new ObjectId(late.userId) })).toBe(0);
    expect(await t.db.collection("invitations").findOne({ _id: new ObjectId(other.body.id) })).toMatchObject({
      status: "pending",
    });
  });

  it("a member leaving or removed leaves the organization's teams", async () => {
    const { t, O, D, M, A, members } = await fixture();
    const team = await createTeam(O, A, "Core");
    await O.browser.post("/organization/add-team-member", { teamId: team, userId: M.userId });
    await O.browser.post("/organization/add-team-member", { teamId: team, userId: D.userId });
    await M.browser.post("/organization/leave", { organizationId: A });
    await O.browser.post("/organization/remove-member", { memberIdOrEmail: members.D });
    expect(await teamMembers(t, team)).toEqual([]);
  });

  it("concurrent adds at the team member limit never exceed it", async () => {
    const { t, O, A } = await fixture({ organization: { teams: { maximumMembersPerTeam: 2 } } });
    const team = await createTeam(O, A, "Core");
    const users = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(t, `tm${i}`)));
    for (const user of users)
      await t.auth.api.addMember({ body: { organizationId: A, userId: user.userId, role: "member" } });
    const results = await Promise.all(
      users.map((user) =>
        O.browser.post("/organization/add-team-member", { teamId: team, userId: user.userId }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(await teamMembers(t, team)).toHaveLength(2);
  });
});
