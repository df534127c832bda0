import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallResult } from "#test/browser.ts";
import { createFixture, type Fixture, type SignedIn, signIn } from "#test/organization.ts";

/**
 * Database commands per organization endpoint (docs/architecture.md: count them and keep the count in a test),
 * with the default options (no cookie cache, so every call first reads its session and user) and
 * teams on. Each command is `command:collection`. The table is printed for the closing note.
 */
const SESSION = ["find:sessions", "find:users"];
/**
 * Cancel and reject: the invitation, the caller's member row, the claim that one answer wins, the
 * status, the organization's listing version (db/listing-version.ts).
 */
const ANSWERED = [
  ...SESSION,
  "find:invitations",
  "find:members",
  "insert:verifications",
  "update:invitations",
  "update:organizations",
];
let f: Fixture;
const table: Record<string, number> = {};

async function measure(label: string, run: () => Promise<CallResult>): Promise<string[]> {
  let res: CallResult | undefined;
  const commands = await f.t.commands(async () => {
    res = await run();
  });
  expect(res?.status, `${label}: ${JSON.stringify(res?.body)}`).toBe(200);
  table[label] = commands.length;
  return commands;
}

let team: string;
let invitee: SignedIn;

beforeAll(async () => {
  f = await createFixture({ organization: { teams: { enabled: true } } });
  team = (
    await f.O.browser.post<{ id: string }>("/organization/create-team", { organizationId: f.A, name: "Core" })
  ).body.id;
  await f.O.browser.post("/organization/create-team", { organizationId: f.A, name: "Spare" });
  invitee = await signIn(f.t, "invitee");
});
afterAll(async () => {
  console.info(`[organization-budget] database commands per request: ${JSON.stringify(table)}`);
  await f.t.close();
});

describe("database commands per organization endpoint", () => {
  it("organization endpoints", async () => {
    const { O, X, A } = f;
    expect(
      await measure("create", () => X.browser.post("/organization/create", { name: "X", slug: "x-org" })),
    ).toEqual([...SESSION, "insert:members", "insert:organizations", "update:sessions"]);
    expect(
      await measure("check-slug", () => O.browser.post("/organization/check-slug", { slug: "free" })),
    ).toEqual([...SESSION, "find:organizations"]);
    expect(
      await measure("update", () =>
        O.browser.post("/organization/update", { organizationId: A, data: { name: "A2" } }),
      ),
    ).toEqual([...SESSION, "find:members", "findAndModify:organizations"]);
    expect(
      await measure("set-active", () => O.browser.post("/organization/set-active", { organizationId: A })),
    ).toEqual([...SESSION, "find:members", "find:organizations", "update:sessions"]);
    expect(await measure("list", () => O.browser.get("/organization/list"))).toEqual([
      ...SESSION,
      "find:members",
      "find:organizations",
    ]);
    // The organization first (its listing version), then the lists together (their order on the
    // wire may vary); the members page is the membership check when it lists the caller: five
    // reads, the users last.
    const full = await measure("get-full-organization", () =>
      O.browser.get("/organization/get-full-organization"),
    );
    expect(full.slice(0, 2)).toEqual(SESSION);
    expect(full.at(-1)).toBe("find:users");
    expect(full[2]).toBe("find:organizations");
    expect(full.slice(3, -1).sort()).toEqual(["find:invitations", "find:members", "find:teams"]);
    // Asked again with nothing changed: the organization (its listing version), the caller's member
    // row and the teams; the members, their users and the invitations are the listing held.
    const again = await measure("get-full-organization (listing held)", () =>
      O.browser.get("/organization/get-full-organization"),
    );
    expect(again.slice(0, 3)).toEqual([...SESSION, "find:organizations"]);
    expect(again.slice(3).sort()).toEqual(["find:members", "find:teams"]);
    expect(
      await measure("has-permission", () =>
        O.browser.post("/organization/has-permission", { permissions: { team: ["create"] } }),
      ),
    ).toEqual([...SESSION, "find:members"]);
  });

  it("member endpoints", async () => {
    const { t, O, D, M, A, members } = f;
    expect(
      await measure("get-active-member", () => O.browser.get("/organization/get-active-member")),
    ).toEqual([...SESSION, "find:members"]);
    expect(
      await measure("get-active-member-role", () => O.browser.get("/organization/get-active-member-role")),
    ).toEqual([...SESSION, "find:members"]);
    // The page and the total are read together; the page lists the caller, so it is the membership
    // check. A page past the caller reads the caller's member row too.
    const listed = await measure("list-members", () => O.browser.get("/organization/list-members"));
    expect(listed.slice(0, 2)).toEqual(SESSION);
    expect(listed.at(-1)).toBe("find:users");
    expect(listed.slice(2, -1).sort()).toEqual(["aggregate:members", "find:members"]);
    const later = await measure("list-members past the caller", () =>
      O.browser.get("/organization/list-members?offset=1"),
    );
    expect(later.slice(2, -1).sort()).toEqual(["aggregate:members", "find:members", "find:members"]);
    expect(
      await measure("update-member-role", () =>
        O.browser.post("/organization/update-member-role", { memberId: members.M, role: "admin" }),
      ),
    ).toEqual([...SESSION, "find:members", "find:members", "update:members", "update:organizations"]);
    const extra = await signIn(t, "extra");
    const added = await f.t.commands(() =>
      t.auth.api.addMember({ body: { organizationId: A, userId: extra.userId, role: "member" } }),
    );
    table["add-member (server)"] = added.length;
    // The second count: a won seat is re-counted against a lowered limit (seats.ts). The last reads:
    // an organization or user deleted meanwhile takes the member back (teams too, when named).
    expect(added).toEqual([
      "find:organizations",
      "find:users",
      "aggregate:members",
      "insert:members",
      "update:organizations",
      "aggregate:members",
      "find:organizations",
      "find:users",
    ]);
    expect(
      await measure("remove-member", () =>
        D.browser.post("/organization/remove-member", { memberIdOrEmail: extra.email }),
      ),
    ).toEqual([
      ...SESSION,
      "find:members",
      "find:users", // the member by address (unique email index)
      "find:members",
      // The member row last: a crash before it leaves a member, never a non-member's active organization.
      "update:sessions",
      "delete:teamMembers",
      // The deletion's member.removed, journaled before the row goes (features/events).
      "insert:pendingDeletions",
      "delete:members",
      "update:organizations",
    ]);
    expect(
      await measure("leave", () => M.browser.post("/organization/leave", { organizationId: A })),
    ).toEqual([
      ...SESSION,
      "find:members",
      "update:sessions",
      "delete:teamMembers",
      "insert:pendingDeletions",
      "delete:members",
      "update:organizations",
    ]);
    await t.auth.api.addMember({ body: { organizationId: A, userId: M.userId, role: "member" } });
  });

  it("invitation endpoints", async () => {
    const { O, A } = f;
    let id = "";
    const invite = await measure("invite-member", async () => {
      const res = await O.browser.post<{ id: string }>("/organization/invite-member", {
        organizationId: A,
        email: invitee.email,
        role: "member",
      });
      id = res.body.id;
      return res;
    });
    expect(invite).toEqual([
      ...SESSION,
      "find:members",
      "find:users", // is the invitee a member: the user by address (unique email index)
      "find:members",
      "find:organizations", // the mail names it
      "find:invitations",
      "aggregate:invitations",
      // The mail counted against the organization's allowance for the address, then the address's.
      "insert:mailLimits",
      "insert:mailLimits",
      // Queued in the outbox (features/mail-outbox) before the invitation its link opens: a crash
      // between leaves a dead link, never an invitation nobody was mailed. Sent beside the answer.
      "insert:mails",
      "insert:invitations",
      "update:organizations",
      // The limit re-counted after the insert, the organization read after it (deleted meanwhile).
      "aggregate:invitations",
      "find:organizations",
    ]);
    expect(
      await measure("get-invitation", () => invitee.browser.get(`/organization/get-invitation?id=${id}`)),
    ).toEqual([...SESSION, "find:invitations", "find:organizations", "find:members", "find:users"]);
    expect(await measure("list-invitations", () => O.browser.get("/organization/list-invitations"))).toEqual([
      ...SESSION,
      "find:members",
      "find:invitations",
      "find:mails", // the page's invitation mail states (features/mail-outbox), one indexed read
    ]);
    expect(
      await measure("list-user-invitations", () =>
        invitee.browser.get("/organization/list-user-invitations"),
      ),
    ).toEqual([...SESSION, "find:invitations", "find:organizations"]);
    expect(
      await measure("accept-invitation", () =>
        invitee.browser.post("/organization/accept-invitation", { invitationId: id }),
      ),
    ).toEqual([
      ...SESSION,
      "find:invitations",
      "find:members",
      "insert:verifications",
      "aggregate:members",
      "insert:members",
      "update:organizations",
      "aggregate:members",
      "update:invitations",
      "update:organizations",
      "update:sessions",
      // Read again after the writes: an organization or user deleted meanwhile takes them back.
      "find:organizations",
      "find:users",
    ]);
    const second = await O.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: A,
      email: "second@example.com",
      role: "member",
    });
    expect(
      await measure("cancel-invitation", () =>
        O.browser.post("/organization/cancel-invitation", { invitationId: second.body.id }),
      ),
    ).toEqual(ANSWERED);
    const third = await O.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: A,
      email: invitee.email.replace("invitee", "third"),
      role: "member",
    });
    const thirdUser = await signIn(f.t, "third");
    expect(
      await measure("reject-invitation", () =>
        thirdUser.browser.post("/organization/reject-invitation", { invitationId: third.body.id }),
      ),
    ).toEqual(ANSWERED);
  });

  it("team endpoints", async () => {
    const { O, M, A } = f;
    // M left and was added back in the member steps: their session has no active organization.
    await M.browser.post("/organization/set-active", { organizationId: A });
    let created = "";
    expect(
      await measure("create-team", async () => {
        const res = await O.browser.post<{ id: string }>("/organization/create-team", {
          organizationId: A,
          name: "New",
        });
        created = res.body.id;
        return res;
      }),
    ).toEqual([...SESSION, "find:members", "insert:teams", "find:organizations"]);
    expect(
      await measure("update-team", () =>
        O.browser.post("/organization/update-team", { teamId: created, data: { name: "Renamed" } }),
      ),
      // The team read again by its store: team.updated names its organization (features/events).
    ).toEqual([...SESSION, "find:teams", "find:members", "find:teams", "findAndModify:teams"]);
    expect(await measure("list-teams", () => O.browser.get("/organization/list-teams"))).toEqual([
      ...SESSION,
      "find:members",
      "find:teams",
    ]);
    expect(
      await measure("add-team-member", () =>
        O.browser.post("/organization/add-team-member", { teamId: team, userId: M.userId }),
      ),
    ).toEqual([
      ...SESSION,
      "find:teams",
      "find:members",
      "find:members",
      "aggregate:teamMembers",
      "insert:teamMembers",
      // Read again after the insert: a team or membership removed meanwhile takes the row back.
      "find:teams",
      "find:members",
      // The audit trail's entry (docs/security.md "Team roles").
      "insert:auditEvents",
    ]);
    expect(
      await measure("set-active-team", () =>
        M.browser.post("/organization/set-active-team", { teamId: team }),
      ),
    ).toEqual([...SESSION, "find:teams", "find:teamMembers", "update:sessions"]);
    expect(
      await measure("list-team-members", () => M.browser.get("/organization/list-team-members")),
    ).toEqual([...SESSION, "find:teams", "find:members", "find:teamMembers", "find:teamMembers"]);
    expect(
      await measure("remove-team-member", () =>
        O.browser.post("/organization/remove-team-member", { teamId: team, userId: M.userId }),
      ),
    ).toEqual([
      ...SESSION,
      "find:teams",
      "find:members",
      // The row read for its team_member.removed event, parked while the delete runs (features/events).
      "find:teamMembers",
      "insert:pendingDeletions",
      "delete:teamMembers",
      "update:sessions",
      "insert:auditEvents",
    ]);
    expect(
      await measure("remove-team", () => O.browser.post("/organization/remove-team", { teamId: created })),
    ).toEqual([
      ...SESSION,
      "find:teams",
      "find:members",
      // The journal entry holding team.deleted, written before the row goes (features/events).
      "insert:pendingDeletions",
      "delete:teams",
      "aggregate:teams",
      "delete:teamMembers",
      "update:members",
      "update:organizations",
      "update:sessions",
    ]);
  });

  it("delete (last: it removes the organization)", async () => {
    const { O, A } = f;
    expect(
      await measure("delete", () => O.browser.post("/organization/delete", { organizationId: A })),
    ).toEqual([
      ...SESSION,
      "find:members",
      "find:organizations",
      // The journal entry a crash leaves for auth.cleanup() to finish the cascade (issue 16 §3).
      "insert:pendingDeletions",
      "delete:organizations",
      "delete:members",
      "delete:invitations",
      "delete:teamMembers",
      "delete:teams",
      "update:sessions",
      // The entry goes with organization.deleted stored, after the answer (features/events).
    ]);
    expect(new ObjectId(A)).toBeTruthy();
  });

  it("with organizationLimit and teams.maximumTeams set: one count before the insert, one after", async () => {
    const limited = await createFixture({
      organization: { organizationLimit: 5, teams: { enabled: true, maximumTeams: 5 } },
    });
    try {
      const { O, X, A } = limited;
      const create = await limited.t.commands(() =>
        X.browser.post("/organization/create", { name: "L", slug: "limited" }),
      );
      table["create (organizationLimit)"] = create.length;
      expect(create).toEqual([
        ...SESSION,
        "aggregate:members",
        "insert:members",
        "aggregate:members",
        "insert:organizations",
        "update:sessions",
      ]);
      const createTeam = await limited.t.commands(() =>
        O.browser.post("/organization/create-team", { organizationId: A, name: "T" }),
      );
      table["create-team (maximumTeams)"] = createTeam.length;
      expect(createTeam).toEqual([
        ...SESSION,
        "find:members",
        "aggregate:teams",
        "insert:teams",
        "aggregate:teams",
        "find:organizations",
      ]);
    } finally {
      await limited.t.close();
    }
  });
});
