/**
 * Organization roles as the core decides them, for pages that show only the actions the viewer can
 * take; the core still checks every action. Pure: the members page's loader uses it on the server.
 */

/** resource → actions. */
export type Statements = Readonly<Record<string, readonly string[]>>;
/** role → statements. */
export type RoleTable = Readonly<Record<string, Statements>>;

/** The organization roles the demo offers (the core defaults). */
export const ROLES = ["owner", "admin", "member"] as const;

/**
 * The core's default role table (packages/auth-core/src/features/organization/members/rules.ts,
 * DEFAULT_ROLES), which the core does not export: tests/browser/organizations-pages.test.ts fails
 * when the two differ.
 */
export const DEFAULT_ROLE_TABLE: RoleTable = {
  owner: {
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
  },
  admin: {
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    organization: ["update"],
  },
  member: {},
};

/** The defaults with the configured roles over them, as the core builds its table. */
export function buildRoleTable(custom: RoleTable, creatorRole: string): RoleTable {
  const table: Record<string, Statements> = { ...DEFAULT_ROLE_TABLE, ...custom };
  if (!Object.hasOwn(table, creatorRole)) table[creatorRole] = DEFAULT_ROLE_TABLE.owner as Statements;
  return table;
}

/** "admin,member" → ["admin", "member"]. */
export function parseRoles(roles: string | readonly string[]): string[] {
  const parts = typeof roles === "string" ? roles.split(",") : roles.flatMap((role) => role.split(","));
  return [...new Set(parts.map((part) => part.trim()).filter(Boolean))];
}

function roleGrants(table: RoleTable, role: string, resource: string, action: string): boolean {
  if (!Object.hasOwn(table, role)) return false;
  const statements = table[role] as Statements;
  return Object.hasOwn(statements, resource) && (statements[resource] as readonly string[]).includes(action);
}

function holdsEvery(table: RoleTable, held: readonly string[], role: string): boolean {
  if (!Object.hasOwn(table, role)) return true;
  return Object.entries(table[role] as Statements).every(([resource, actions]) =>
    actions.every((action) => held.some((own) => roleGrants(table, own, resource, action))),
  );
}

export interface MemberActions {
  canChangeRole: boolean;
  canRemove: boolean;
}

/**
 * What the viewer may do to another member, by the core's rules (members/endpoints): the
 * permission itself; only a creator-role holder acts on a creator-role holder; nobody acts on a
 * member whose roles grant more than their own.
 */
export function findMemberActions(
  table: RoleTable,
  creatorRole: string,
  viewerRoles: string | readonly string[],
  targetRoles: string | readonly string[],
): MemberActions {
  const held = parseRoles(viewerRoles);
  const target = parseRoles(targetRoles);
  const reachable =
    (!target.includes(creatorRole) || held.includes(creatorRole)) &&
    target.every((role) => holdsEvery(table, held, role));
  const may = (action: string) => held.some((role) => roleGrants(table, role, "member", action));
  return { canChangeRole: reachable && may("update"), canRemove: reachable && may("delete") };
}

/** The roles the viewer may give: only a creator-role holder gives it, and no role grants more than the viewer's. */
export function findGrantableRoles(
  table: RoleTable,
  creatorRole: string,
  viewerRoles: string | readonly string[],
): string[] {
  const held = parseRoles(viewerRoles);
  return Object.keys(table).filter(
    (role) => (role !== creatorRole || held.includes(creatorRole)) && holdsEvery(table, held, role),
  );
}
