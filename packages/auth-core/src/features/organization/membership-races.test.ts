import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  beforeNextInsert,
  beforeNextWrite,
  errorBody,
  type Fixture,
  useFixtures,
} from "#test/organization.ts";

/**
 * add-member (server-only) and add-team-member racing the deletion of what they point at, against
 * the real FerretDB server. The deletion is forced in just before the request's own insert reaches
 * the database (the interleaving Promise.all would hit only sometimes); afterwards no row may point
 * at the deleted organization, team or membership.
 */
const fixture = useFixtures({ organization: { teams: { enabled: true } } });

async function createTeam(f: Fixture, name: string): Promise<string> {
  const res = await f.O.browser.post<{ id: string }>("/organization/create-team", {
    organizationId: f.A,
    name,
  });
  expect(res.status).toBe(200);
  return res.body.id;
}

const countIn = (f: Fixture, collection: string, filter: Record<string, unknown>) =>
  f.t.db.collection(collection).countDocuments(filter);

describe("add-member racing the organization's deletion", () => {
  it("the member and its team membership are taken back: ORGANIZATION_NOT_FOUND", async () => {
    const f = await fixture();
    const team = await createTeam(f, "Late");
    beforeNextInsert(f, "members", async () => {
      expect((await f.O.browser.post("/organization/delete", { organizationId: f.A })).status).toBe(200);
    });
    await expect(
      f.t.auth.api.addMember({
        body: { organizationId: f.A, userId: f.X.userId, role: "member", teamId: team },
      }),
    ).rejects.toMatchObject({ code: "ORGANIZATION_NOT_FOUND", status: 400 });
    const organizationId = new ObjectId(f.A);
    expect(await countIn(f, "organizations", { _id: organizationId })).toBe(0);
    expect(await countIn(f, "members", { organizationId })).toBe(0);
    expect(await countIn(f, "teamMembers", { organizationId })).toBe(0);
    expect(await countIn(f, "members", { userId: new ObjectId(f.X.userId) })).toBe(0);
  });

  it("without a race the member is added with its team", async () => {
    const f = await fixture();
    const team = await createTeam(f, "On time");
    const { data } = await f.t.auth.api.addMember({
      body: { organizationId: f.A, userId: f.X.userId, role: "member", teamId: team },
    });
    expect(data).toMatchObject({ organizationId: f.A, userId: f.X.userId, role: "member" });
    expect(
      await countIn(f, "teamMembers", { teamId: new ObjectId(team), userId: new ObjectId(f.X.userId) }),
    ).toBe(1);
  });
});

describe("add-member racing a team's removal or the user's deletion", () => {
  const WITH_DELETION = {
    organization: { teams: { enabled: true } },
    user: { deleteUser: { enabled: true } },
  };

  it("remove-team of the named team just before the insert: TEAM_NOT_FOUND, nothing of it left", async () => {
    const f = await fixture();
    await createTeam(f, "Keep"); // the last team cannot be removed
    const doomed = await createTeam(f, "Doomed");
    beforeNextInsert(f, "members", async () => {
      expect((await f.O.browser.post("/organization/remove-team", { teamId: doomed })).status).toBe(200);
    });
    await expect(
      f.t.auth.api.addMember({
        body: { organizationId: f.A, userId: f.X.userId, role: "member", teamId: doomed },
      }),
    ).rejects.toMatchObject({ code: "TEAM_NOT_FOUND", status: 400 });
    expect(await countIn(f, "teamMembers", { teamId: new ObjectId(doomed) })).toBe(0);
    expect(await countIn(f, "members", { userId: new ObjectId(f.X.userId) })).toBe(0);
  });

  it("the user deleted just before the insert: MEMBER_USER_NOT_FOUND, no member row of a deleted user", async () => {
    const f = await fixture(WITH_DELETION);
    beforeNextInsert(f, "members", async () => {
      const deleted = await f.X.browser.post("/delete-user", { password: "correct horse battery" });
      expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    });
    await expect(
      f.t.auth.api.addMember({ body: { organizationId: f.A, userId: f.X.userId, role: "member" } }),
    ).rejects.toMatchObject({ code: "MEMBER_USER_NOT_FOUND" });
    expect(await countIn(f, "users", { _id: new ObjectId(f.X.userId) })).toBe(0);
    expect(await countIn(f, "members", { userId: new ObjectId(f.X.userId) })).toBe(0);
  });

  it("a membership added while the deletion is between leaving and the user row is swept after it", async () => {
    const f = await fixture(WITH_DELETION);
    // Just before the deletion removes the user row (after it left every organization), add-member
    // inserts a membership and still finds the user: it answers 200; the deletion must not leave it.
    let added: unknown = null;
    beforeNextWrite(f, "users", "deleteOne", async () => {
      added = (
        await f.t.auth.api.addMember({ body: { organizationId: f.A, userId: f.X.userId, role: "member" } })
      ).data;
    });
    const deleted = await f.X.browser.post("/delete-user", { password: "correct horse battery" });
    expect(deleted.status).toBe(200);
    expect(added).toMatchObject({ organizationId: f.A, userId: f.X.userId });
    expect(await countIn(f, "users", { _id: new ObjectId(f.X.userId) })).toBe(0);
    expect(await countIn(f, "members", { userId: new ObjectId(f.X.userId) })).toBe(0);
    expect(await countIn(f, "teamMembers", { userId: new ObjectId(f.X.userId) })).toBe(0);
  });
});

describe("accept-invitation racing the removal of its team", () => {
  it("remove-team just before the member insert: TEAM_NOT_FOUND, no member row, nothing active", async () => {
    const f = await fixture();
    await createTeam(f, "Keep"); // the last team cannot be removed
    const doomed = await createTeam(f, "Doomed");
    const sent = await f.O.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: f.A,
      email: f.X.email,
      role: "member",
      teamId: doomed,
    });
    expect(sent.status).toBe(200);
    beforeNextInsert(f, "members", async () => {
      expect((await f.O.browser.post("/organization/remove-team", { teamId: doomed })).status).toBe(200);
    });
    const res = await f.X.browser.post("/organization/accept-invitation", { invitationId: sent.body.id });
    expect(res).toMatchObject({ status: 400, body: errorBody("TEAM_NOT_FOUND", "Team not found") });
    const userId = new ObjectId(f.X.userId);
    expect(await countIn(f, "members", { organizationId: new ObjectId(f.A), userId })).toBe(0);
    expect(await countIn(f, "teamMembers", { userId })).toBe(0);
    expect(await countIn(f, "sessions", { userId, activeOrganizationId: f.A })).toBe(0);
  });
});

describe("add-team-member racing deletions", () => {
  it("remove-team just before the insert: TEAM_NOT_FOUND and no membership of the removed team", async () => {
    const f = await fixture();
    await createTeam(f, "Keep"); // the last team cannot be removed
    const team = await createTeam(f, "Doomed");
    beforeNextInsert(f, "teamMembers", async () => {
      expect((await f.O.browser.post("/organization/remove-team", { teamId: team })).status).toBe(200);
    });
    const res = await f.O.browser.post("/organization/add-team-member", { teamId: team, userId: f.M.userId });
    expect(res).toMatchObject({ status: 400, body: errorBody("TEAM_NOT_FOUND", "Team not found") });
    expect(await countIn(f, "teams", { _id: new ObjectId(team) })).toBe(0);
    expect(await countIn(f, "teamMembers", { teamId: new ObjectId(team) })).toBe(0);
  });

  it("remove-member of the target just before the insert: USER_NOT_MEMBER and no team membership left", async () => {
    const f = await fixture();
    const team = await createTeam(f, "Team");
    beforeNextInsert(f, "teamMembers", async () => {
      const removed = await f.O.browser.post("/organization/remove-member", { memberIdOrEmail: f.members.M });
      expect(removed.status).toBe(200);
    });
    const res = await f.O.browser.post("/organization/add-team-member", { teamId: team, userId: f.M.userId });
    expect(res).toMatchObject({
      status: 400,
      body: errorBody("USER_NOT_MEMBER", "User is not a member of the organization"),
    });
    const userId = new ObjectId(f.M.userId);
    expect(await countIn(f, "members", { organizationId: new ObjectId(f.A), userId })).toBe(0);
    expect(await countIn(f, "teamMembers", { userId })).toBe(0);
  });

  it("the organization deleted just before the insert: nothing is left pointing at it", async () => {
    const f = await fixture();
    const team = await createTeam(f, "Team");
    beforeNextInsert(f, "teamMembers", async () => {
      expect((await f.O.browser.post("/organization/delete", { organizationId: f.A })).status).toBe(200);
    });
    const res = await f.O.browser.post("/organization/add-team-member", { teamId: team, userId: f.M.userId });
    // The cascade deleted the team too by the time the insert ran: the team is read first.
    expect(res).toMatchObject({ status: 400, body: errorBody("TEAM_NOT_FOUND", "Team not found") });
    const organizationId = new ObjectId(f.A);
    expect(await countIn(f, "teams", { organizationId })).toBe(0);
    expect(await countIn(f, "teamMembers", { organizationId })).toBe(0);
    expect(await countIn(f, "members", { organizationId })).toBe(0);
  });

  it("without a race the member joins the team", async () => {
    const f = await fixture();
    const team = await createTeam(f, "Team");
    const res = await f.O.browser.post("/organization/add-team-member", { teamId: team, userId: f.M.userId });
    expect(res).toMatchObject({ status: 200, body: { teamId: team, userId: f.M.userId } });
    expect(
      await countIn(f, "teamMembers", { teamId: new ObjectId(team), userId: new ObjectId(f.M.userId) }),
    ).toBe(1);
  });
});
