import { describe, expect, it } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  orgsTeamsAddAction,
  orgsTeamsAddMemberAction,
  orgsTeamsListAction,
  orgsTeamsMembersAction,
  orgsTeamsRemoveAction,
  orgsTeamsRemoveMemberAction,
  orgsTeamsSetRoleAction,
} from "../../packages/cli/src/commands/orgs-teams.ts";
import { EXIT } from "../../packages/cli/src/errors.ts";
import { exitOf, testRun } from "./run-context.ts";

/**
 * `tessera orgs teams list|add|remove|members|add-member|remove-member|set-role` against the test
 * database: teams and team roles through the endpoints' own services, the operator as actor.
 */
const t = useTestAuth();
const run = (json = false) => testRun(t.db.databaseName, { json });

async function teamRows(teamId: string) {
  return (await t.db.collection("teamMembers").find().toArray())
    .filter((row) => row.teamId.toHexString() === teamId)
    .map((row) => [row.userId.toHexString(), row.role ?? "team-member"]);
}

describe("tessera orgs teams", () => {
  it("creates a team, adds members with team roles, changes and removes them; memberships audited", async () => {
    const owner = await signIn(t, "teams-cli-owner");
    const [bruce, selina] = [await signIn(t, "teams-cli-bruce"), await signIn(t, "teams-cli-selina")];
    const org = await createOrganization(owner, "wayne", "Wayne");
    await addMember(t, org, bruce, "member");
    await addMember(t, org, selina, "member");

    const team = await orgsTeamsAddAction(run(), "wayne", "Gotham");
    expect(team).toMatchObject({ name: "Gotham", organizationId: org });
    expect(
      await orgsTeamsAddMemberAction(run(), "wayne", "gotham", bruce.email, { role: "team-admin" }),
    ).toMatchObject({
      userId: bruce.userId,
      role: "team-admin",
    });
    await orgsTeamsAddMemberAction(run(), "wayne", team.id, selina.userId, {});
    expect(await teamRows(team.id)).toEqual([
      [bruce.userId, "team-admin"],
      [selina.userId, "team-member"],
    ]);
    expect((await orgsTeamsListAction(run(), "wayne")).map((row) => [row.name, row.members])).toEqual([
      ["Gotham", 2],
    ]);
    expect(await orgsTeamsSetRoleAction(run(), "wayne", "Gotham", selina.email, "team-admin")).toMatchObject({
      role: "team-admin",
    });
    expect((await orgsTeamsMembersAction(run(), "wayne", "Gotham")).map((row) => row.role)).toEqual([
      "team-admin",
      "team-admin",
    ]);
    expect(await orgsTeamsRemoveMemberAction(run(), "wayne", "Gotham", selina.email)).toEqual({
      teamId: team.id,
      userId: selina.userId,
    });
    expect(await teamRows(team.id)).toEqual([[bruce.userId, "team-admin"]]);

    const actions = (await auditEvents(t, { actor: "cli:tester" }))
      .filter((event) => (event.details as { teamId?: string }).teamId === team.id)
      .map((event) => [
        event.action,
        event.subjectId?.toHexString(),
        (event.details as { role?: string }).role,
      ]);
    expect(actions).toEqual([
      ["organization.add-team-member", bruce.userId, "team-admin"],
      ["organization.add-team-member", selina.userId, "team-member"],
      ["organization.set-team-member-role", selina.userId, "team-admin"],
      ["organization.remove-team-member", selina.userId, undefined],
    ]);
  });

  it("refusals exit with their meaning and change nothing; remove asks, keeps the last team", async () => {
    const owner = await signIn(t, "teams-cli-refusals");
    const outsider = await signIn(t, "teams-cli-outsider");
    const member = await signIn(t, "teams-cli-member");
    const org = await createOrganization(owner, "lexcorp", "LexCorp");
    await addMember(t, org, member, "member");
    const team = await orgsTeamsAddAction(run(), "lexcorp", "Metropolis");
    await orgsTeamsAddMemberAction(run(), "lexcorp", "Metropolis", member.email, {});
    const before = await teamRows(team.id);

    expect(
      await exitOf(orgsTeamsAddMemberAction(run(), "lexcorp", "Metropolis", outsider.email, {})),
    ).toEqual([EXIT.refused, "USER_NOT_MEMBER"]);
    expect(await exitOf(orgsTeamsAddMemberAction(run(), "lexcorp", "Metropolis", member.email, {}))).toEqual([
      EXIT.refused,
      "TEAM_MEMBER_ALREADY_EXISTS",
    ]);
    expect(
      await exitOf(orgsTeamsSetRoleAction(run(), "lexcorp", "Metropolis", member.email, "overlord")),
    ).toEqual([EXIT.notFound, "MEMBER_ROLE_NOT_FOUND"]);
    expect(await exitOf(orgsTeamsMembersAction(run(), "lexcorp", "Smallville"))).toEqual([
      EXIT.notFound,
      "TEAM_NOT_FOUND",
    ]);
    expect(await exitOf(orgsTeamsAddAction(run(), "lexcorp", "   "))).toEqual([
      EXIT.usage,
      "VALIDATION_ERROR",
    ]);
    expect(await teamRows(team.id)).toEqual(before);

    expect(await exitOf(orgsTeamsRemoveAction(run(), "lexcorp", "Metropolis", {}))).toEqual([
      EXIT.usage,
      "USAGE",
    ]);
    expect(await exitOf(orgsTeamsRemoveAction(run(), "lexcorp", "Metropolis", { yes: true }))).toEqual([
      EXIT.refused,
      "UNABLE_TO_REMOVE_LAST_TEAM",
    ]);
    expect(await teamRows(team.id)).toEqual(before);
    const second = await orgsTeamsAddAction(run(), "lexcorp", "Smallville");
    expect(await orgsTeamsRemoveAction(run(), "lexcorp", "Metropolis", { yes: true })).toEqual({
      teamId: team.id,
      removed: true,
    });
    expect(await teamRows(team.id)).toEqual([]);
    expect((await orgsTeamsListAction(run(), "lexcorp")).map((row) => row.id)).toEqual([second.id]);
  });
});
