import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { beforeNextInsert, errorBody, type Fixture, useFixtures } from "./test-helpers.ts";

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
      f.t.auth.api.addMember!({
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
    const { data } = await f.t.auth.api.addMember!({
      body: { organizationId: f.A, userId: f.X.userId, role: "member", teamId: team },
    });
    expect(data).toMatchObject({ organizationId: f.A, userId: f.X.userId, role: "member" });
    expect(
      await countIn(f, "teamMembers", { teamId: new ObjectId(team), userId: new ObjectId(f.X.userId) }),
    ).toBe(1);
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
    expect(res.status).toBe(400);
    expect(["TEAM_NOT_FOUND", "USER_NOT_MEMBER"]).toContain((res.body as { code: string }).code);
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
