import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { errorBody, type Fixture, type Overrides, type SignedIn, useFixtures } from "#test/organization.ts";
import type { TestAuth } from "#test/test-auth.ts";
import { createAuth } from "../../../create-auth.ts";

/** Team roles (docs/security.md "Team roles"): team-admin manages its own team and nothing else. */
const openFixture = useFixtures();
const ROLES = {
  reviewer: { project: ["review"] },
  lead: { team: ["update"], project: ["review", "deploy"] },
};
function fixture(overrides: Overrides = {}): Promise<Fixture> {
  return openFixture({
    ...overrides,
    organization: { roles: ROLES, teams: { enabled: true, roles: ["reviewer", "lead"] } },
  });
}
async function createTeam(by: SignedIn, organizationId: string, name: string): Promise<string> {
  const res = await by.browser.post<{ id: string }>("/organization/create-team", { organizationId, name });
  expect(res.status).toBe(200);
  return res.body.id;
}
async function teamRoles(t: TestAuth, teamId: string): Promise<Record<string, string | null>> {
  const rows = await t.db
    .collection("teamMembers")
    .find({ teamId: new ObjectId(teamId) })
    .toArray();
  return Object.fromEntries(
    rows.map((row) => [String(row.userId), (row.role as string | undefined) ?? null]),
  );
}
async function teamName(t: TestAuth, teamId: string): Promise<string> {
  return String((await t.db.collection("teams").findOne({ _id: new ObjectId(teamId) }))?.name);
}
const NOT_ALLOWED = {
  status: 403,
  body: errorBody("TEAM_UPDATE_NOT_ALLOWED", "not allowed to update or delete this team"),
};

/** Org A: owner O, admin D, member M (team-admin of Core), outsider of the teams X joins as member. */
async function teamsWithAdmin(overrides: Overrides = {}) {
  const f = await fixture(overrides);
  const core = await createTeam(f.O, f.A, "Core");
  const other = await createTeam(f.O, f.A, "Other");
  const add = (teamId: string, userId: string, role?: string) =>
    f.O.browser.post("/organization/add-team-member", { teamId, userId, ...(role ? { role } : {}) });
  expect((await add(core, f.M.userId, "team-admin")).status).toBe(200);
  await f.t.auth.api.addMember({ body: { organizationId: f.A, userId: f.X.userId, role: "member" } });
  return { ...f, core, other, add };
}

describe("team roles: add-team-member, update-team-member-role, list-team-members", () => {
  it("a member joins with a team role; list-team-members answers it; a row stored without one reads as team-member", async () => {
    const { t, O, M, X, D, core } = await teamsWithAdmin();
    await t.db.collection("teamMembers").insertOne({
      _id: new ObjectId(),
      teamId: new ObjectId(core),
      organizationId: (await t.db.collection("teams").findOne({ _id: new ObjectId(core) }))?.organizationId,
      userId: new ObjectId(D.userId),
      createdAt: new Date(),
      seat: 7,
    });
    const added = await O.browser.post("/organization/add-team-member", { teamId: core, userId: X.userId });
    expect(added).toMatchObject({
      status: 200,
      body: { teamId: core, userId: X.userId, role: "team-member" },
    });
    const list = await O.browser.get<{ userId: string; role: string }[]>(
      `/organization/list-team-members?teamId=${core}`,
    );
    expect(Object.fromEntries(list.body.map((row) => [row.userId, row.role]))).toEqual({
      [M.userId]: "team-admin",
      [D.userId]: "team-member",
      [X.userId]: "team-member",
    });
    expect(await teamRoles(t, core)).toEqual({
      [M.userId]: "team-admin",
      [D.userId]: null,
      [X.userId]: "team-member",
    });
  });

  it("an organization admin sets any team role; an unknown role is refused and nothing changes", async () => {
    const { t, D, M, core } = await teamsWithAdmin();
    const set = await D.browser.post("/organization/update-team-member-role", {
      teamId: core,
      userId: M.userId,
      role: "lead",
    });
    expect(set).toMatchObject({ status: 200, body: { teamId: core, userId: M.userId, role: "lead" } });
    expect(
      await D.browser.post("/organization/update-team-member-role", {
        teamId: core,
        userId: M.userId,
        role: "admin",
      }),
    ).toMatchObject({ status: 400, body: errorBody("MEMBER_ROLE_NOT_FOUND", "Role not found") });
    expect(await teamRoles(t, core)).toEqual({ [M.userId]: "lead" });
    const audit = await t.db
      .collection("auditEvents")
      .findOne({ action: "organization.set-team-member-role" });
    expect(audit).toMatchObject({
      actorId: new ObjectId(D.userId),
      subjectId: new ObjectId(M.userId),
      details: { teamId: core, role: "lead", previousRole: "team-admin" },
    });
  });
});

describe("a team admin manages their own team and nothing else", () => {
  it("renames, adds, re-roles and removes in their own team", async () => {
    const { t, M, X, core } = await teamsWithAdmin();
    expect(
      await M.browser.post("/organization/update-team", { teamId: core, data: { name: "Core 2" } }),
    ).toMatchObject({
      status: 200,
      body: { name: "Core 2" },
    });
    expect(
      await M.browser.post("/organization/add-team-member", { teamId: core, userId: X.userId }),
    ).toMatchObject({
      status: 200,
      body: { role: "team-member" },
    });
    expect(
      await M.browser.post("/organization/update-team-member-role", {
        teamId: core,
        userId: X.userId,
        role: "team-admin",
      }),
    ).toMatchObject({ status: 200, body: { role: "team-admin" } });
    expect(
      await M.browser.post("/organization/remove-team-member", { teamId: core, userId: X.userId }),
    ).toMatchObject({ status: 200 });
    expect(await teamRoles(t, core)).toEqual({ [M.userId]: "team-admin" });
  });

  it("is refused on another team of the organization, and nothing changes", async () => {
    const { t, M, X, core, other, add } = await teamsWithAdmin();
    expect((await add(other, X.userId)).status).toBe(200);
    // Their own team active on their session must not lend its role to another team.
    expect((await M.browser.post("/organization/set-active-team", { teamId: core })).status).toBe(200);
    expect(
      await M.browser.post("/organization/update-team", { teamId: other, data: { name: "Mine" } }),
    ).toMatchObject(NOT_ALLOWED);
    expect(
      await M.browser.post("/organization/add-team-member", { teamId: other, userId: M.userId }),
    ).toMatchObject(NOT_ALLOWED);
    expect(
      await M.browser.post("/organization/update-team-member-role", {
        teamId: other,
        userId: X.userId,
        role: "team-admin",
      }),
    ).toMatchObject(NOT_ALLOWED);
    expect(
      await M.browser.post("/organization/remove-team-member", { teamId: other, userId: X.userId }),
    ).toMatchObject(NOT_ALLOWED);
    expect(await teamName(t, other)).toBe("Other");
    expect(await teamRoles(t, other)).toEqual({ [X.userId]: "team-member" });
  });

  it("cannot delete their team, create teams, or touch the organization's members", async () => {
    const { t, M, X, A, core } = await teamsWithAdmin();
    expect(await M.browser.post("/organization/remove-team", { teamId: core })).toMatchObject({
      status: 403,
      body: errorBody("TEAM_DELETE_NOT_ALLOWED", "not allowed to delete teams"),
    });
    expect(
      (await M.browser.post("/organization/create-team", { organizationId: A, name: "New" })).status,
    ).toBe(403);
    expect(
      (await M.browser.post("/organization/remove-member", { organizationId: A, memberIdOrEmail: X.email }))
        .status,
    ).toBe(403);
    expect(await t.db.collection("teams").countDocuments({ organizationId: new ObjectId(A) })).toBe(2);
    expect(await t.db.collection("members").countDocuments({ organizationId: new ObjectId(A) })).toBe(4);
  });

  it("cannot give a role with rights they lack, nor remove or re-role a member who manages teams by their organization role", async () => {
    const { t, M, D, X, core, add } = await teamsWithAdmin();
    expect((await add(core, D.userId)).status).toBe(200);
    expect(
      await M.browser.post("/organization/add-team-member", { teamId: core, userId: X.userId, role: "lead" }),
    ).toMatchObject(NOT_ALLOWED);
    expect(
      await M.browser.post("/organization/remove-team-member", { teamId: core, userId: D.userId }),
    ).toMatchObject(NOT_ALLOWED);
    expect(
      await M.browser.post("/organization/update-team-member-role", {
        teamId: core,
        userId: D.userId,
        role: "team-admin",
      }),
    ).toMatchObject(NOT_ALLOWED);
    expect(await teamRoles(t, core)).toEqual({ [M.userId]: "team-admin", [D.userId]: "team-member" });
  });
});

describe("has-permission with a team as context", () => {
  it("counts the caller's role in that team; the organization role still wins where it grants more", async () => {
    const { O, M, D, core, other, add } = await teamsWithAdmin();
    expect((await add(core, D.userId, "reviewer")).status).toBe(200);
    const check = (by: SignedIn, permissions: object, teamId?: string) =>
      by.browser.post("/organization/has-permission", { permissions, ...(teamId ? { teamId } : {}) });
    expect((await check(M, { team: ["update"] }, core)).body).toEqual({ error: null, success: true });
    expect((await check(M, { team: ["update"] }, other)).body).toMatchObject({ success: false });
    expect((await check(M, { team: ["update"] })).body).toMatchObject({ success: false });
    expect((await check(M, { member: ["delete"] }, core)).body).toMatchObject({ success: false });
    expect((await check(D, { project: ["review"] }, core)).body).toEqual({ error: null, success: true });
    expect((await check(D, { member: ["delete"] }, core)).body).toEqual({ error: null, success: true });
    expect((await check(O, { team: ["delete"] }, other)).body).toEqual({ error: null, success: true });
    expect(await check(M, { team: ["update"] }, new ObjectId().toHexString())).toMatchObject({
      status: 400,
      body: errorBody("TEAM_NOT_FOUND", "Team not found"),
    });
  });
});

describe("organization.teams.roles", () => {
  it("names only roles of organization.roles (createAuth refuses otherwise, naming the option)", () => {
    expect(() =>
      createAuth({
        secret: "x".repeat(32),
        database: { uri: "mongodb://127.0.0.1:1/none" },
        organization: { teams: { enabled: true, roles: ["ghost"] } },
      }),
    ).toThrow(/organization\.teams\.roles/);
  });
});
