import {
  findPermissionRefusal,
  hasPermission,
  type PermissionRefusal,
  parseRoles,
  type RoleTable,
  type Statements,
} from "../members/rules.ts";

/**
 * Pure team decisions: team roles, and who may do what to a team (docs/security.md "Team roles").
 * An organization role acts on every team of its organization; a team role acts only in its own team,
 * and only on the team itself (rename) and its members (add, remove, set team role). Deleting or
 * creating teams stays with organization roles. No I/O.
 */

const TEAM_ADMIN_ROLE = "team-admin";
export const TEAM_MEMBER_ROLE = "team-member";

/** The built-in team roles: a team admin manages the team (team:update within it); a team member nothing. */
const DEFAULT_TEAM_ROLES: RoleTable = {
  [TEAM_ADMIN_ROLE]: { team: ["update"] },
  [TEAM_MEMBER_ROLE]: {},
};

/**
 * The team roles in force: the built-in two, and each organization custom role named in
 * `organization.teams.roles` with its statements (a name that is a built-in's replaces it).
 */
export function buildTeamRoleTable(
  organizationRoles: Readonly<Record<string, Statements>>,
  teamScoped: readonly string[],
): RoleTable {
  const table: Record<string, Statements> = { ...DEFAULT_TEAM_ROLES };
  for (const name of teamScoped) {
    if (Object.hasOwn(organizationRoles, name)) table[name] = organizationRoles[name] as Statements;
  }
  return table;
}

/** A stored team membership's role: rows written before team roles existed have none and read as team-member. */
export function teamRoleOf(row: { role?: string | null | undefined }): string {
  return row.role ?? TEAM_MEMBER_ROLE;
}

export type TeamAction = "rename" | "add-member" | "remove-member" | "set-member-role" | "delete";

/** @internal Exported for its unit test's table (rules.test.ts). */
export const TEAM_ACTIONS: readonly TeamAction[] = [
  "rename",
  "add-member",
  "remove-member",
  "set-member-role",
  "delete",
];

/** The permission each action needs; the first four are what a team role may grant in its team. */
const NEEDED: Record<TeamAction, Readonly<Record<string, readonly string[]>>> = {
  rename: { team: ["update"] },
  "add-member": { team: ["update"] },
  "remove-member": { team: ["update"] },
  "set-member-role": { team: ["update"] },
  delete: { team: ["delete"] },
};
const TEAM_SCOPED_ACTIONS: ReadonlySet<TeamAction> = new Set([
  "rename",
  "add-member",
  "remove-member",
  "set-member-role",
]);

export interface TeamRoleTables {
  organization: RoleTable;
  team: RoleTable;
}

/** Who acts: their organization roles, and their role in each team they are in (team id → role). */
export interface TeamActor {
  organizationRoles: string | readonly string[];
  teamRoles: Readonly<Record<string, string>>;
}

function grantsThroughOrganization(actor: TeamActor, action: TeamAction, tables: TeamRoleTables): boolean {
  return hasPermission(actor.organizationRoles, NEEDED[action], tables.organization);
}

/**
 * Whether the actor may do `action` to team `teamId`: their organization role grants it, or — for the
 * team-scoped actions only — their role in that very team does. A team admin of another team is
 * nobody here.
 */
export function canActOnTeam(
  actor: TeamActor,
  action: TeamAction,
  teamId: string,
  tables: TeamRoleTables,
): boolean {
  if (grantsThroughOrganization(actor, action, tables)) return true;
  if (!TEAM_SCOPED_ACTIONS.has(action) || !Object.hasOwn(actor.teamRoles, teamId)) return false;
  return hasPermission(actor.teamRoles[teamId] as string, NEEDED[action], tables.team);
}

/** A team member someone acts on: their organization roles and their role in the team (null: none). */
export interface TeamTarget {
  organizationRoles: string | readonly string[];
  teamRole: string | null;
}

/**
 * Whether the actor may remove or change the team role of a member of team `teamId`: as canActOnTeam;
 * and one acting through a team role only may not touch a member who manages teams through their
 * organization role (an organization admin stays in the team whatever its team admin thinks), nor a
 * member whose team role grants what the actor's does not (as canActOnMember for organization roles).
 */
export function canActOnTeamMember(
  actor: TeamActor,
  action: "remove-member" | "set-member-role",
  teamId: string,
  target: TeamTarget,
  tables: TeamRoleTables,
): boolean {
  if (grantsThroughOrganization(actor, action, tables)) return true;
  if (!canActOnTeam(actor, action, teamId, tables)) return false;
  if (hasPermission(target.organizationRoles, { team: ["update"] }, tables.organization)) return false;
  if (target.teamRole === null || !Object.hasOwn(tables.team, target.teamRole)) return true;
  return holdsEveryRight(actor, teamId, tables.team[target.teamRole] as Statements, tables);
}

/** Every right of `statements` is granted by the actor's role in the team or their organization roles. */
function holdsEveryRight(
  actor: TeamActor,
  teamId: string,
  statements: Statements,
  tables: TeamRoleTables,
): boolean {
  const own = Object.hasOwn(actor.teamRoles, teamId) ? (actor.teamRoles[teamId] as string) : "";
  return Object.entries(statements).every(([resource, actions]) =>
    actions.every(
      (action) =>
        hasPermission(own, { [resource]: [action] }, tables.team) ||
        hasPermission(actor.organizationRoles, { [resource]: [action] }, tables.organization),
    ),
  );
}

/**
 * Whether the actor may give `role` in team `teamId`: it must be a team role; an organization role
 * that manages teams gives any; a team role gives only a role whose every right it holds itself
 * (nobody grants what they do not hold, as for organization roles — docs/security.md).
 */
export function canGrantTeamRole(
  actor: TeamActor,
  role: string,
  teamId: string,
  tables: TeamRoleTables,
): boolean {
  if (!Object.hasOwn(tables.team, role)) return false;
  if (grantsThroughOrganization(actor, "set-member-role", tables)) return true;
  if (!canActOnTeam(actor, "set-member-role", teamId, tables)) return false;
  return holdsEveryRight(actor, teamId, tables.team[role] as Statements, tables);
}

/** The one role of the table findTeamPermissionRefusal builds (a table of its own: no name can clash). */
const COMBINED = "combined";

/**
 * has-permission with a team as context: every requested action must be granted by the member's
 * organization roles or their role in the team (null: not in the team) — the organization role wins
 * where it grants more. Null when granted, else findPermissionRefusal's reason.
 */
export function findTeamPermissionRefusal(
  organizationRoles: string | readonly string[],
  teamRole: string | null,
  request: Readonly<Record<string, readonly string[]>>,
  tables: TeamRoleTables,
): PermissionRefusal | null {
  const refusal = findPermissionRefusal(organizationRoles, request, tables.organization);
  if (refusal === null || teamRole === null || refusal === "NOT_AUTHORIZED") return refusal;
  const combined: Record<string, string[]> = {};
  const add = (statements: Statements | undefined) => {
    for (const [resource, actions] of Object.entries(statements ?? {}))
      combined[resource] = [...(combined[resource] ?? []), ...actions];
  };
  for (const role of parseRoles(organizationRoles))
    if (Object.hasOwn(tables.organization, role)) add(tables.organization[role]);
  if (Object.hasOwn(tables.team, teamRole)) add(tables.team[teamRole]);
  return findPermissionRefusal([COMBINED], request, { [COMBINED]: combined });
}
