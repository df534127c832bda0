import type { Team, TeamMember } from "@tessera/auth-core/operator";
import { Command, Option } from "commander";
import { notFound } from "../errors.ts";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, report } from "../kit.ts";
import {
  type OperatorSession,
  type OrganizationRecord,
  resolveOrganization,
  resolveUserId,
  withOperator,
} from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

/**
 * `tessera orgs teams`: an organization's teams, their members and team roles (docs/security.md
 * "Team roles") through the team endpoints' own services, as the operator `cli:<os user>`; changes
 * of memberships are audited as the endpoints' are. Exit codes as every command's: 2 usage (a name
 * the schema refuses, remove without --yes and no terminal), 3 not found (organization, team, user),
 * 4 refused by a rule (an unknown team role, a user outside the organization, the last team, a limit).
 */

type OperatorModule = typeof import("@tessera/auth-core/operator");
type Organization = OrganizationRecord;
type Teams = ReturnType<OperatorModule["createOperatorTeams"]>;
type TeamDoc = NonNullable<Awaited<ReturnType<Teams["findTeam"]>>>;

async function withTeams<T>(
  run: RunContext,
  ref: string,
  work: (teams: Teams, org: Organization, session: OperatorSession) => Promise<T>,
): Promise<T> {
  return withOperator(run, async (session) => {
    const { createOperatorTeams } = await import("@tessera/auth-core/operator");
    const org = await resolveOrganization(session, ref);
    return work(createOperatorTeams(session.auth, session.actor), org, session);
  });
}

/** The team named by id or name in the organization, or exit 3. */
async function requireTeam(teams: Teams, org: Organization, ref: string): Promise<TeamDoc> {
  const team = await teams.findTeam(org, ref);
  if (!team) throw notFound("TEAM_NOT_FOUND", `no team ${ref} in ${org.slug}`);
  return team;
}

export function orgsTeamsListAction(run: RunContext, ref: string): Promise<(Team & { members: number })[]> {
  return withTeams(run, ref, (teams, org) => teams.list(org));
}

export function orgsTeamsAddAction(run: RunContext, ref: string, name: string): Promise<Team> {
  return withTeams(run, ref, (teams, org) => teams.create(org, name));
}

export function orgsTeamsRemoveAction(
  run: RunContext,
  ref: string,
  teamRef: string,
  options: { yes?: boolean | undefined },
): Promise<{ teamId: string; removed: true }> {
  return withTeams(run, ref, async (teams, org) => {
    const team = await requireTeam(teams, org, teamRef);
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove the team ${team.name} of ${org.name} (${org.slug}) with its memberships? Its members stay in the organization.`,
    );
    await teams.remove(team);
    return { teamId: team._id.toHexString(), removed: true as const };
  });
}

export function orgsTeamsMembersAction(run: RunContext, ref: string, teamRef: string): Promise<TeamMember[]> {
  return withTeams(run, ref, async (teams, org) => teams.members(await requireTeam(teams, org, teamRef)));
}

export function orgsTeamsAddMemberAction(
  run: RunContext,
  ref: string,
  teamRef: string,
  user: string,
  options: { role?: string | undefined },
): Promise<TeamMember> {
  return withTeams(run, ref, async (teams, org, session) => {
    const team = await requireTeam(teams, org, teamRef);
    return teams.addMember(team, await resolveUserId(session, user), options.role);
  });
}

export function orgsTeamsRemoveMemberAction(
  run: RunContext,
  ref: string,
  teamRef: string,
  user: string,
): Promise<{ teamId: string; userId: string }> {
  return withTeams(run, ref, async (teams, org, session) => {
    const team = await requireTeam(teams, org, teamRef);
    const userId = await resolveUserId(session, user);
    await teams.removeMember(team, userId);
    return { teamId: team._id.toHexString(), userId };
  });
}

export function orgsTeamsSetRoleAction(
  run: RunContext,
  ref: string,
  teamRef: string,
  user: string,
  role: string,
): Promise<TeamMember> {
  return withTeams(run, ref, async (teams, org, session) => {
    const team = await requireTeam(teams, org, teamRef);
    return teams.setRole(team, await resolveUserId(session, user), role);
  });
}

const orgHelp = "the organization's slug or id";
const teamHelp = "the team's id or name";
const userHelp = "the user's email or id";

export const orgsTeamsCommand = new Command("teams")
  .description("an organization's teams, their members and team roles")
  .addCommand(
    new Command("list")
      .description("the organization's teams with their member counts")
      .argument("<org>", orgHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        const listed = await orgsTeamsListAction(run, ref);
        noteEmpty(run, listed.length, "No teams.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["ID", "NAME", "MEMBERS", "CREATED"],
            data.map((team) => [team.id, team.name, String(team.members), formatDate(team.createdAt)]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("add")
      .description("create a team (within teams.maximumTeams)")
      .argument("<org>", orgHelp)
      .argument("<name>")
      .action(async (ref: string, name: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsTeamsAddAction(run, ref, name), (team) => [
          `created team ${team.name} (${team.id}) in ${ref}`,
        ]);
      }),
  )
  .addCommand(
    new Command("remove")
      .description("remove a team and its memberships (never the last team unless allowed)")
      .argument("<org>", orgHelp)
      .argument("<team>", teamHelp)
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (ref: string, team: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsTeamsRemoveAction(run, ref, team, options), () => [
          `removed team ${team} from ${ref}`,
        ]);
      }),
  )
  .addCommand(
    new Command("members")
      .description("a team's members and their team roles")
      .argument("<org>", orgHelp)
      .argument("<team>", teamHelp)
      .action(async (ref: string, team: string, _options, command: Command) => {
        const run = contextOf(command);
        const listed = await orgsTeamsMembersAction(run, ref, team);
        noteEmpty(run, listed.length, "No members.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["USER", "TEAM ROLE", "SINCE"],
            data.map((row) => [row.userId, row.role, formatDate(row.createdAt)]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("add-member")
      .description("put a member of the organization in the team")
      .argument("<org>", orgHelp)
      .argument("<team>", teamHelp)
      .argument("<user>", userHelp)
      .option("--role <role>", "the team role: team-admin, team-member (default) or a team-scoped role")
      .action(
        async (ref: string, team: string, user: string, options: { role?: string }, command: Command) => {
          const run = contextOf(command);
          report(run, await orgsTeamsAddMemberAction(run, ref, team, user, options), (row) => [
            `${user} is now in ${team} (${row.role})`,
          ]);
        },
      ),
  )
  .addCommand(
    new Command("remove-member")
      .description("take a user out of the team (they stay in the organization)")
      .argument("<org>", orgHelp)
      .argument("<team>", teamHelp)
      .argument("<user>", userHelp)
      .action(async (ref: string, team: string, user: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsTeamsRemoveMemberAction(run, ref, team, user), () => [
          `removed ${user} from ${team}`,
        ]);
      }),
  )
  .addCommand(
    new Command("set-role")
      .description("set a team member's team role")
      .argument("<org>", orgHelp)
      .argument("<team>", teamHelp)
      .argument("<user>", userHelp)
      .argument("<role>")
      .action(async (ref: string, team: string, user: string, role: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsTeamsSetRoleAction(run, ref, team, user, role), (row) => [
          `${user} is now ${row.role} in ${team}`,
        ]);
      }),
  );
