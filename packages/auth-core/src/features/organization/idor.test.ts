import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallResult } from "#test/browser.ts";
import { createFixture, type Fixture, type SignedIn } from "#test/organization.ts";

/**
 * docs/security.md I: no cross-organization read or write by id. Admin D of organization A aims every
 * endpoint that takes an organizationId, teamId, memberId or invitationId at organization B; each
 * call is refused with a 4xx and B's rows stay exactly as they were.
 */
let f: Fixture;
let bTeam: string;
let bInvitation: string;
let bMemberQ: string;

async function snapshotOfB(): Promise<unknown> {
  const B = new ObjectId(f.B);
  const db = f.t.db;
  return {
    organization: await db.collection("organizations").findOne({ _id: B }),
    members: await db.collection("members").find({ organizationId: B }).sort({ _id: 1 }).toArray(),
    invitations: await db.collection("invitations").find({ organizationId: B }).sort({ _id: 1 }).toArray(),
    teams: await db.collection("teams").find({ organizationId: B }).sort({ _id: 1 }).toArray(),
    teamMembers: await db.collection("teamMembers").find({ organizationId: B }).sort({ _id: 1 }).toArray(),
  };
}

beforeAll(async () => {
  f = await createFixture({ organization: { teams: { enabled: true } } });
  bTeam = (
    await f.P.browser.post<{ id: string }>("/organization/create-team", { organizationId: f.B, name: "B" })
  ).body.id;
  await f.P.browser.post("/organization/add-team-member", { teamId: bTeam, userId: f.Q.userId });
  bInvitation = (
    await f.P.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: f.B,
      email: "invitee@example.com",
      role: "member",
    })
  ).body.id;
  bMemberQ = f.members.Q;
  await f.O.browser.post("/organization/create-team", { organizationId: f.A, name: "A" });
});
afterAll(async () => {
  await f.t.close();
});

type Call = (d: SignedIn) => Promise<CallResult>;
const calls: [string, Call][] = [
  [
    "update {organizationId: B}",
    (d) => d.browser.post("/organization/update", { organizationId: f.B, data: { name: "pwned" } }),
  ],
  ["delete {organizationId: B}", (d) => d.browser.post("/organization/delete", { organizationId: f.B })],
  [
    "set-active {organizationId: B}",
    (d) => d.browser.post("/organization/set-active", { organizationId: f.B }),
  ],
  [
    "set-active {organizationSlug: org-b}",
    (d) => d.browser.post("/organization/set-active", { organizationSlug: "org-b" }),
  ],
  [
    "get-full-organization ?organizationId=B",
    (d) => d.browser.get(`/organization/get-full-organization?organizationId=${f.B}`),
  ],
  [
    "get-full-organization ?organizationSlug=org-b",
    (d) => d.browser.get("/organization/get-full-organization?organizationSlug=org-b"),
  ],
  [
    "list-members ?organizationId=B",
    (d) => d.browser.get(`/organization/list-members?organizationId=${f.B}`),
  ],
  [
    "get-active-member-role ?organizationId=B",
    (d) => d.browser.get(`/organization/get-active-member-role?organizationId=${f.B}`),
  ],
  [
    "has-permission {organizationId: B}",
    (d) =>
      d.browser.post("/organization/has-permission", {
        organizationId: f.B,
        permissions: { member: ["delete"] },
      }),
  ],
  [
    "remove-member {Q, organizationId: A}",
    (d) => d.browser.post("/organization/remove-member", { memberIdOrEmail: bMemberQ, organizationId: f.A }),
  ],
  [
    "remove-member {Q, organizationId: B}",
    (d) => d.browser.post("/organization/remove-member", { memberIdOrEmail: bMemberQ, organizationId: f.B }),
  ],
  [
    "remove-member {Q by email}",
    (d) => d.browser.post("/organization/remove-member", { memberIdOrEmail: f.Q.email }),
  ],
  [
    "update-member-role {Q, organizationId: A}",
    (d) =>
      d.browser.post("/organization/update-member-role", {
        memberId: bMemberQ,
        role: "admin",
        organizationId: f.A,
      }),
  ],
  [
    "update-member-role {Q, organizationId: B}",
    (d) =>
      d.browser.post("/organization/update-member-role", {
        memberId: bMemberQ,
        role: "admin",
        organizationId: f.B,
      }),
  ],
  ["leave {organizationId: B}", (d) => d.browser.post("/organization/leave", { organizationId: f.B })],
  [
    "invite-member {organizationId: B}",
    (d) =>
      d.browser.post("/organization/invite-member", {
        organizationId: f.B,
        email: "spy@example.com",
        role: "member",
      }),
  ],
  [
    "invite-member into A with B's team",
    (d) =>
      d.browser.post("/organization/invite-member", {
        organizationId: f.A,
        email: "spy@example.com",
        role: "member",
        teamId: bTeam,
      }),
  ],
  [
    "list-invitations ?organizationId=B",
    (d) => d.browser.get(`/organization/list-invitations?organizationId=${f.B}`),
  ],
  ["get-invitation of B", (d) => d.browser.get(`/organization/get-invitation?id=${bInvitation}`)],
  [
    "accept-invitation of B",
    (d) => d.browser.post("/organization/accept-invitation", { invitationId: bInvitation }),
  ],
  [
    "reject-invitation of B",
    (d) => d.browser.post("/organization/reject-invitation", { invitationId: bInvitation }),
  ],
  [
    "cancel-invitation of B",
    (d) => d.browser.post("/organization/cancel-invitation", { invitationId: bInvitation }),
  ],
  [
    "create-team {organizationId: B}",
    (d) => d.browser.post("/organization/create-team", { organizationId: f.B, name: "spy" }),
  ],
  [
    "update-team of B",
    (d) => d.browser.post("/organization/update-team", { teamId: bTeam, data: { name: "spy" } }),
  ],
  ["remove-team of B", (d) => d.browser.post("/organization/remove-team", { teamId: bTeam })],
  [
    "remove-team of B named as A's",
    (d) => d.browser.post("/organization/remove-team", { teamId: bTeam, organizationId: f.A }),
  ],
  ["list-teams ?organizationId=B", (d) => d.browser.get(`/organization/list-teams?organizationId=${f.B}`)],
  ["set-active-team of B", (d) => d.browser.post("/organization/set-active-team", { teamId: bTeam })],
  ["list-team-members of B", (d) => d.browser.get(`/organization/list-team-members?teamId=${bTeam}`)],
  [
    "add-team-member to B's team",
    (d) => d.browser.post("/organization/add-team-member", { teamId: bTeam, userId: d.userId }),
  ],
  [
    "remove-team-member from B's team",
    (d) => d.browser.post("/organization/remove-team-member", { teamId: bTeam, userId: f.Q.userId }),
  ],
];

describe("admin D of A cannot reach organization B by id", () => {
  it.each(calls)("%s → 4xx, B unchanged", async (_label, call) => {
    const before = await snapshotOfB();
    const res = await call(f.D);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await snapshotOfB()).toEqual(before);
  });

  it("D's session never gets B as active organization", async () => {
    const sessions = await f.t.db
      .collection("sessions")
      .find({ userId: new ObjectId(f.D.userId) })
      .toArray();
    expect(sessions.map((s) => s.activeOrganizationId)).toEqual([f.A]);
  });
});

describe("membership is read from the database on every call", () => {
  it("a removed member with a cookie cache is refused at once", async () => {
    const g = await createFixture({ session: { cookieCache: { enabled: true } } });
    try {
      // M's cookie cache still names A as active organization after the removal.
      await g.O.browser.post("/organization/remove-member", { memberIdOrEmail: g.members.M });
      const invite = await g.M.browser.post("/organization/invite-member", {
        organizationId: g.A,
        email: "x@example.com",
        role: "member",
      });
      expect(invite.status).toBe(403);
      expect((await g.M.browser.get(`/organization/list-members?organizationId=${g.A}`)).status).toBe(403);
      expect(await g.t.db.collection("invitations").countDocuments()).toBe(0);
    } finally {
      await g.t.close();
    }
  });
});

describe("fail closed without an organization", () => {
  it.each([
    ["/organization/update", { data: { name: "x" } }],
    ["/organization/invite-member", { email: "x@example.com", role: "member" }],
    ["/organization/remove-member", { memberIdOrEmail: "x@example.com" }],
    ["/organization/has-permission", { permissions: { member: ["delete"] } }],
  ])("%s with no organizationId and no active organization → 400", async (path, body) => {
    expect(await f.X.browser.post(path, body)).toMatchObject({
      status: 400,
      body: { code: "NO_ACTIVE_ORGANIZATION" },
    });
    for (const organizationId of ["", null, {}, ["x"]])
      expect((await f.X.browser.post(path, { ...body, organizationId })).status).toBe(400);
  });
});
