import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { type Fixture, useFixtures } from "#test/organization.ts";
import { makeScimToken, scim, scimErrorBody } from "#test/scim.ts";

/** /scim/v2/Groups: the organization's teams, their members and the team role a group gives. */
const openFixture = useFixtures();
const LOCATION = "http://localhost:3000/api/auth/scim/v2";
const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const TEAM_EXTENSION = "urn:tessera:params:scim:schemas:extension:team:2.0:Group";
const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

interface Group {
  id: string;
  displayName: string;
  members?: { value: string }[];
  meta: { version: string };
}

async function setUp(teams: Record<string, unknown> = {}) {
  const f = await openFixture({ organization: { teams: { enabled: true, ...teams } } });
  const token = await makeScimToken(f);
  const row = await f.t.db.collection("scimTokens").findOne({ organizationId: new ObjectId(f.A) });
  // An app-made team: the directory's groups are never the organization's last team here.
  await f.O.browser.post("/organization/create-team", { organizationId: f.A, name: "Everyone" });
  return { f, token, actor: `scim:${row!._id.toHexString()}` };
}

const teamRoles = async (f: Fixture, teamId: string) =>
  Object.fromEntries(
    (
      await f.t.db
        .collection("teamMembers")
        .find({ teamId: new ObjectId(teamId) })
        .toArray()
    ).map((row) => [String(row.userId), row.role]),
  );

describe("creating a group", () => {
  it("makes a team with the members in the group's team role, answers 201 and audits as the token", async () => {
    const { f, token, actor } = await setUp();
    const res = await scim<Group>(f, token, "POST", "/Groups", {
      schemas: [GROUP_SCHEMA, TEAM_EXTENSION],
      displayName: "Engineering",
      externalId: "grp-eng",
      members: [{ value: f.M.userId }, { value: f.D.userId }],
      [TEAM_EXTENSION]: { role: "team-admin" },
    });
    expect(res.status).toBe(201);
    const team = await f.t.db.collection("teams").findOne({ name: "Engineering" });
    const id = team!._id.toHexString();
    const link = await f.t.db.collection("scimGroups").findOne({ teamId: team!._id });
    expect(team!.organizationId).toEqual(new ObjectId(f.A));
    expect(res.headers.get("location")).toBe(`${LOCATION}/Groups/${id}`);
    expect(res.headers.get("etag")).toBe(res.body.meta.version);
    expect(res.body).toEqual({
      schemas: [GROUP_SCHEMA, TEAM_EXTENSION],
      id,
      externalId: "grp-eng",
      displayName: "Engineering",
      members: [
        { value: f.M.userId, $ref: `${LOCATION}/Users/${f.M.userId}`, type: "User" },
        { value: f.D.userId, $ref: `${LOCATION}/Users/${f.D.userId}`, type: "User" },
      ],
      [TEAM_EXTENSION]: { role: "team-admin" },
      meta: {
        resourceType: "Group",
        created: link!.createdAt.toISOString(),
        lastModified: link!.updatedAt.toISOString(),
        location: `${LOCATION}/Groups/${id}`,
        version: expect.stringMatching(/^W\/"[A-Za-z0-9_-]{22}"$/),
      },
    });
    expect(await teamRoles(f, id)).toEqual({ [f.M.userId]: "team-admin", [f.D.userId]: "team-admin" });
    const audit = await f.t.db.collection("auditEvents").find({ actor }).sort({ _id: 1 }).toArray();
    expect(
      audit.map((row) => [row.action, row.subjectId?.toHexString() ?? null, row.details.teamId]),
    ).toEqual([
      ["organization.scim-group-create", null, id],
      ["organization.add-team-member", f.M.userId, id],
      ["organization.add-team-member", f.D.userId, id],
    ]);
    expect((await scim(f, token, "GET", `/Groups/${id}`)).body).toEqual(res.body);
  });

  it.each([
    [
      "no displayName",
      { members: [] },
      "Invalid displayName: Invalid input: expected string, received undefined",
    ],
    [
      "an unknown team role",
      { displayName: "Ops", [TEAM_EXTENSION]: { role: "boss" } },
      "Unknown team role 'boss'",
    ],
  ])("refuses %s with 400 invalidValue and makes no team", async (_, body, detail) => {
    const { f, token } = await setUp();
    const res = await scim(f, token, "POST", "/Groups", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(scimErrorBody(400, detail, "invalidValue"));
    expect(await f.t.db.collection("teams").countDocuments()).toBe(1);
    expect(await f.t.db.collection("scimGroups").countDocuments()).toBe(0);
  });

  it("a displayName any team of the organization has, in any case, is 409 uniqueness", async () => {
    const { f, token } = await setUp();
    const res = await scim(f, token, "POST", "/Groups", { displayName: "EVERYONE" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      scimErrorBody(409, "Group EVERYONE already exists in this organization", "uniqueness"),
    );
  });
});

describe("reading groups", () => {
  it("filters by displayName (any case), externalId and id, pages, and leaves members out on request", async () => {
    const { f, token } = await setUp();
    const made: Group[] = [];
    for (const [name, externalId] of [
      ["Sales", "g-1"],
      ["Support", "g-2"],
      ["Security", "g-3"],
    ])
      made.push(
        (
          await scim<Group>(f, token, "POST", "/Groups", {
            displayName: name,
            externalId,
            members: [{ value: f.M.userId }],
          })
        ).body,
      );
    const list = (query: string) =>
      scim<{ totalResults: number; itemsPerPage: number; Resources: Group[] }>(
        f,
        token,
        "GET",
        `/Groups?${query}`,
      );
    const byName = await list(`filter=${encodeURIComponent('displayName eq "support"')}`);
    expect(byName.body.totalResults).toBe(1);
    expect(byName.body.Resources[0]).toEqual(made[1]);
    const byExternal = await list(`filter=${encodeURIComponent('externalId eq "g-3"')}`);
    expect(byExternal.body.Resources.map((g) => g.displayName)).toEqual(["Security"]);
    const byId = await list(`filter=${encodeURIComponent(`id eq "${made[0]!.id}"`)}`);
    expect(byId.body.Resources.map((g) => g.displayName)).toEqual(["Sales"]);
    const page = await list("startIndex=2&count=1&excludedAttributes=members");
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0]!.displayName).toBe("Support");
    expect(page.body.Resources[0]!.members).toBeUndefined();
    const bad = await list(`filter=${encodeURIComponent('members.value eq "x"')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      scimErrorBody(400, "Unknown or unfilterable attribute 'members.value'", "invalidFilter"),
    );
    // The app-made team is no group of the directory's.
    expect((await list(`filter=${encodeURIComponent('displayName eq "Everyone"')}`)).body.totalResults).toBe(
      0,
    );
  });

  it("a token sees its own organization's groups only; without teams there is no /Groups", async () => {
    const { f, token } = await setUp();
    const made = await scim<Group>(f, token, "POST", "/Groups", { displayName: "Sales" });
    const other = await makeScimToken(f, "B");
    const res = await scim(f, other, "GET", `/Groups/${made.body.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(scimErrorBody(404, `Group ${made.body.id} not found`));
    expect((await scim(f, other, "GET", "/Groups")).body).toMatchObject({ totalResults: 0 });
    const off = await openFixture();
    const offToken = await makeScimToken(off);
    expect((await scim(off, offToken, "GET", "/Groups")).status).toBe(404);
    const types = await scim<{ Resources: { id: string }[] }>(off, offToken, "GET", "/ResourceTypes");
    expect(types.body.Resources.map((type) => type.id)).toEqual(["User"]);
  });
});

describe("changing members", () => {
  it("Entra's Add and filtered Remove, Okta's full replace; team rows follow and the removed lose the team", async () => {
    const { f, token, actor } = await setUp();
    const made = await scim<Group>(f, token, "POST", "/Groups", {
      displayName: "Sales",
      members: [{ value: f.M.userId }],
    });
    const id = made.body.id;
    await f.M.browser.post("/organization/set-active-team", { teamId: id });
    const add = await scim<Group>(f, token, "PATCH", `/Groups/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: "Add", path: "members", value: [{ value: f.D.userId }] }],
    });
    expect(add.status).toBe(200);
    expect(add.body.members!.map((m) => m.value)).toEqual([f.M.userId, f.D.userId]);
    const remove = await scim<Group>(f, token, "PATCH", `/Groups/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: "Remove", path: `members[value eq "${f.M.userId}"]` }],
    });
    expect(remove.body.members!.map((m) => m.value)).toEqual([f.D.userId]);
    expect(Object.keys(await teamRoles(f, id))).toEqual([f.D.userId]);
    const sessions = await f.t.db
      .collection("sessions")
      .find({ userId: new ObjectId(f.M.userId) })
      .toArray();
    expect(sessions.map((s) => s.activeTeamId ?? null)).not.toContain(id);
    const replace = await scim<Group>(f, token, "PATCH", `/Groups/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [
        { op: "replace", value: { id, displayName: "Sales EMEA" } },
        { op: "replace", path: "members", value: [{ value: f.O.userId }, { value: f.M.userId }] },
      ],
    });
    expect(replace.body).toMatchObject({ displayName: "Sales EMEA" });
    expect(replace.body.members!.map((m) => m.value).sort()).toEqual([f.O.userId, f.M.userId].sort());
    expect((await f.t.db.collection("teams").findOne({ _id: new ObjectId(id) }))!.name).toBe("Sales EMEA");
    const actions = (await f.t.db.collection("auditEvents").find({ actor }).sort({ _id: 1 }).toArray()).map(
      (row) => row.action,
    );
    expect(actions).toEqual([
      "organization.scim-group-create",
      "organization.add-team-member",
      "organization.add-team-member",
      "organization.remove-team-member",
      "organization.scim-group-update",
      "organization.remove-team-member",
      "organization.add-team-member",
      "organization.add-team-member",
    ]);
  });

  it("a new team role applies to every member; PUT replaces the whole group", async () => {
    const { f, token } = await setUp();
    const made = await scim<Group>(f, token, "POST", "/Groups", {
      displayName: "Ops",
      members: [{ value: f.M.userId }],
    });
    const id = made.body.id;
    const role = await scim<Group>(f, token, "PATCH", `/Groups/${id}`, {
      Operations: [{ op: "replace", path: `${TEAM_EXTENSION}:role`, value: "team-admin" }],
    });
    expect(role.status).toBe(200);
    expect(await teamRoles(f, id)).toEqual({ [f.M.userId]: "team-admin" });
    const put = await scim<Group>(f, token, "PUT", `/Groups/${id}`, {
      displayName: "Operations",
      members: [{ value: f.D.userId }],
    });
    expect(put.body).toMatchObject({ displayName: "Operations", [TEAM_EXTENSION]: { role: "team-admin" } });
    expect(await teamRoles(f, id)).toEqual({ [f.D.userId]: "team-admin" });
    // Without a role the group's members are team members, and the group shows no extension.
    const removed = await scim<Group>(f, token, "PATCH", `/Groups/${id}`, {
      Operations: [{ op: "remove", path: `${TEAM_EXTENSION}:role` }],
    });
    expect(removed.body).not.toHaveProperty([TEAM_EXTENSION]);
    expect((removed.body as unknown as { schemas: string[] }).schemas).toEqual([GROUP_SCHEMA]);
    expect(await teamRoles(f, id)).toEqual({ [f.D.userId]: "team-member" });
  });

  it("an unknown path is 400 invalidPath and changes nothing", async () => {
    const { f, token } = await setUp();
    const made = await scim<Group>(f, token, "POST", "/Groups", {
      displayName: "Ops",
      members: [{ value: f.M.userId }],
    });
    const path = await scim(f, token, "PATCH", `/Groups/${made.body.id}`, {
      Operations: [
        { op: "replace", path: "displayName", value: "Renamed" },
        { op: "replace", path: "owner", value: "x" },
      ],
    });
    expect(path.status).toBe(400);
    expect(path.body).toEqual(scimErrorBody(400, "Unknown or read-only attribute 'owner'", "invalidPath"));
    expect((await scim(f, token, "GET", `/Groups/${made.body.id}`)).body).toEqual(made.body);
  });
  it("a deprovisioned user leaves the group's team", async () => {
    const { f, token } = await setUp();
    const user = await scim<{ id: string }>(f, token, "POST", "/Users", { userName: "ada@acme.test" });
    const made = await scim<Group>(f, token, "POST", "/Groups", {
      displayName: "Ops",
      members: [{ value: user.body.id }],
    });
    await scim(f, token, "PATCH", `/Users/${user.body.id}`, {
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect((await scim<Group>(f, token, "GET", `/Groups/${made.body.id}`)).body.members).toEqual([]);
  });
});

describe("members who are no members of the organization", () => {
  /** Everything another organization's user Q has: their memberships, team rows and sessions' teams. */
  const holdingsOf = async (f: Fixture, userId: string) => {
    const id = new ObjectId(userId);
    const strip = (rows: Record<string, unknown>[]) => rows.map(({ _id, ...row }) => row);
    return {
      members: strip(await f.t.db.collection("members").find({ userId: id }).toArray()),
      teamMembers: strip(await f.t.db.collection("teamMembers").find({ userId: id }).toArray()),
      activeTeams: (await f.t.db.collection("sessions").find({ userId: id }).toArray()).map(
        (row) => row.activeTeamId ?? null,
      ),
    };
  };

  it("are skipped on PATCH, PUT and POST alike: 200/201 with the true member list, audited, nothing changes for them", async () => {
    const { f, token, actor } = await setUp();
    const before = await holdingsOf(f, f.Q.userId);
    const nobody = new ObjectId().toHexString();
    // Another organization's user, an id of nobody, and no id at all: one outcome for all three.
    const outsiders = [f.Q.userId, nobody, "fake-member-id"];
    const made = await scim<Group>(f, token, "POST", "/Groups", {
      displayName: "Ops",
      members: [{ value: f.M.userId }, ...outsiders.map((value) => ({ value }))],
    });
    expect(made.status).toBe(201);
    expect(made.body.members!.map((m) => m.value)).toEqual([f.M.userId]);
    const id = made.body.id;
    for (const value of outsiders) {
      const add = await scim<Group>(f, token, "PATCH", `/Groups/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: "add", path: "members", value: [{ value }] }],
      });
      expect(add.status).toBe(200);
      expect(add.body).toEqual(made.body);
    }
    const put = await scim<Group>(f, token, "PUT", `/Groups/${id}`, {
      displayName: "Ops",
      members: [{ value: f.D.userId }, { value: f.Q.userId }],
    });
    expect(put.status).toBe(200);
    expect(put.body.members!.map((m) => m.value)).toEqual([f.D.userId]);
    expect(await teamRoles(f, id)).toEqual({ [f.D.userId]: "team-member" });
    expect(await holdingsOf(f, f.Q.userId)).toEqual(before);
    expect(await f.t.db.collection("teamMembers").countDocuments({ userId: new ObjectId(f.Q.userId) })).toBe(
      before.teamMembers.length,
    );
    const audit = await f.t.db.collection("auditEvents").find({ actor }).sort({ _id: 1 }).toArray();
    expect(audit.map((row) => [row.action, row.details.skippedMembers ?? null])).toEqual([
      ["organization.scim-group-create", outsiders],
      ["organization.add-team-member", null],
      ...outsiders.map((value) => ["organization.scim-group-update", [value]]),
      ["organization.scim-group-update", [f.Q.userId]],
      ["organization.remove-team-member", null],
      ["organization.add-team-member", null],
    ]);
    expect(audit[0]!.details.skippedMemberCount).toBe(3);
    expect(audit.some((row) => row.subjectId?.toHexString() === f.Q.userId)).toBe(false);
  });
});

describe("deleting a group", () => {
  it("removes the team, its memberships and the directory's row, even the organization's last team", async () => {
    const { f, token, actor } = await setUp();
    const made = await scim<Group>(f, token, "POST", "/Groups", {
      displayName: "Ops",
      members: [{ value: f.M.userId }],
    });
    const teamId = new ObjectId(made.body.id);
    const res = await scim(f, token, "DELETE", `/Groups/${made.body.id}`);
    expect(res.status).toBe(204);
    expect(await f.t.db.collection("teams").findOne({ _id: teamId })).toBeNull();
    expect(await f.t.db.collection("teamMembers").countDocuments({ teamId })).toBe(0);
    expect(await f.t.db.collection("scimGroups").countDocuments()).toBe(0);
    expect(
      await f.t.db.collection("auditEvents").findOne({ actor, action: "organization.scim-group-delete" }),
    ).toMatchObject({
      details: { organizationId: f.A, teamId: made.body.id },
    });
    expect((await scim(f, token, "GET", `/Groups/${made.body.id}`)).status).toBe(404);
    // Even the organization's last team goes: the directory made it (docs/security.md "SCIM").
    const last = await scim<Group>(f, token, "POST", "/Groups", { displayName: "Last" });
    const everyone = await f.t.db.collection("teams").findOne({ name: "Everyone" });
    const removed = await f.O.browser.post("/organization/remove-team", {
      teamId: everyone!._id.toHexString(),
    });
    expect(removed.status).toBe(200);
    expect((await scim(f, token, "DELETE", `/Groups/${last.body.id}`)).status).toBe(204);
    expect(await f.t.db.collection("teams").countDocuments({ organizationId: new ObjectId(f.A) })).toBe(0);
    expect(await f.t.db.collection("scimGroups").countDocuments()).toBe(0);
  });
});
