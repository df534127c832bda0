import { parseRoles } from "../../../contracts/role-list.ts";

/**
 * Pure membership decisions: roles and permissions, who may grant which role, member
 * and team seats. No I/O. Invitation state is in invitations/rules.ts. The role rules are public
 * as `@tessera/auth-core/roles` (src/roles.ts): this file imports nothing but the role-list parser,
 * so a page and a browser can bundle it (tests/core/layering.test.ts).
 */

/** resource → actions. */
export type Statements = Readonly<Record<string, readonly string[]>>;
/** role → statements. */
export type RoleTable = Readonly<Record<string, Statements>>;

/** the resources and actions of the organization feature. */
export const ORGANIZATION_STATEMENTS: Statements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
};

const { organization: _organizationActions, ...allButOrganization } = ORGANIZATION_STATEMENTS;

/** owner has all; admin all except organization delete; member none. */
export const DEFAULT_ROLES: RoleTable = {
  owner: ORGANIZATION_STATEMENTS,
  admin: { ...allButOrganization, organization: ["update"] },
  member: {},
};

/**
 * The role table in force: the defaults with the configured roles over them (a configured role of a
 * default's name replaces it). A creator role that is not defined anywhere gets the owner's rights.
 */
export function buildRoleTable(
  custom: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>,
  creatorRole: string,
): RoleTable {
  const table: Record<string, Statements> = { ...DEFAULT_ROLES, ...custom };
  if (!Object.hasOwn(table, creatorRole)) table[creatorRole] = ORGANIZATION_STATEMENTS;
  return table;
}

/** The role-list parser is shared with the input schemas (contracts/role-list.ts). */
export { parseRoles };

function roleGrants(table: RoleTable, role: string, resource: string, action: string): boolean {
  // Own properties only: a role or resource named "constructor" or "__proto__" grants nothing.
  if (!Object.hasOwn(table, role)) return false;
  const statements = table[role] as Statements;
  return Object.hasOwn(statements, resource) && (statements[resource] as readonly string[]).includes(action);
}

/** Why a permission request is refused: the catalogue's "Access control" codes. */
export type PermissionRefusal =
  | "NOT_AUTHORIZED"
  | "RESOURCE_ACCESS_NOT_ALLOWED"
  | "RESOURCE_ACCESS_UNAUTHORIZED";

/**
 * every requested action must be granted, each by any one of the member's roles. Null when
 * granted; otherwise why (Better Auth's access-control answers): no held role knows the resource →
 * "not allowed to access resource"; it does, but not every action → "unauthorized to access
 * resource"; an empty request → "Not authorized" (fail closed).
 */
export function findPermissionRefusal(
  roles: string | readonly string[],
  request: Readonly<Record<string, readonly string[]>>,
  table: RoleTable,
): PermissionRefusal | null {
  const held = parseRoles(roles);
  const entries = Object.entries(request);
  if (entries.length === 0 || entries.some(([, actions]) => actions.length === 0)) return "NOT_AUTHORIZED";
  for (const [resource, actions] of entries) {
    const knows = held.some(
      (role) => Object.hasOwn(table, role) && Object.hasOwn(table[role] as Statements, resource),
    );
    if (!knows) return "RESOURCE_ACCESS_NOT_ALLOWED";
    if (!actions.every((action) => held.some((role) => roleGrants(table, role, resource, action))))
      return "RESOURCE_ACCESS_UNAUTHORIZED";
  }
  return null;
}

export function hasPermission(
  roles: string | readonly string[],
  request: Readonly<Record<string, readonly string[]>>,
  table: RoleTable,
): boolean {
  return findPermissionRefusal(roles, request, table) === null;
}

/** Roles of `roles` the table does not define. */
export function findUnknownRoles(roles: readonly string[], table: RoleTable): string[] {
  return roles.filter((role) => !Object.hasOwn(table, role));
}

/**
 * The rule "nobody can grant a role they do not hold themselves": every right of the granted
 * roles must be one the caller holds, and only a holder of the creator role may grant it (so a
 * custom role with every right still cannot mint owners — docs/security.md).
 */
export function canGrantRoles(
  callerRoles: string | readonly string[],
  grantedRoles: readonly string[],
  table: RoleTable,
  creatorRole: string,
): boolean {
  const held = parseRoles(callerRoles);
  if (grantedRoles.includes(creatorRole) && !held.includes(creatorRole)) return false;
  return grantedRoles.every((role) => {
    if (!Object.hasOwn(table, role)) return false;
    const statements = table[role] as Statements;
    return Object.entries(statements).every(([resource, actions]) =>
      actions.every((action) => held.some((own) => roleGrants(table, own, resource, action))),
    );
  });
}

/**
 * As in the admin area, a caller may change or remove a member only when the
 * caller's roles grant every action the member's roles grant, so a custom role holding just
 * `member:update` / `member:delete` cannot act on a member who can do more. A role the table does
 * not define grants nothing.
 */
export function coversRoles(
  callerRoles: string | readonly string[],
  targetRoles: string | readonly string[],
  table: RoleTable,
): boolean {
  const held = parseRoles(callerRoles);
  return parseRoles(targetRoles).every((role) => {
    if (!Object.hasOwn(table, role)) return true;
    return Object.entries(table[role] as Statements).every(([resource, actions]) =>
      actions.every((action) => held.some((own) => roleGrants(table, own, resource, action))),
    );
  });
}

export function holdsRole(roles: string, role: string): boolean {
  return parseRoles(roles).includes(role);
}

/**
 * Whether the caller may act on (change the role of, remove) a member at all, the permission for the
 * action aside: only a creator-role holder acts on a creator-role holder (an admin cannot change or
 * remove an owner, docs/security.md), and nobody on a member whose roles grant more (coversRoles).
 * update-member-role and remove-member decide with it; pages use it to offer only what is allowed.
 */
export function canActOnMember(
  callerRoles: string | readonly string[],
  targetRoles: string | readonly string[],
  table: RoleTable,
  creatorRole: string,
): boolean {
  const held = parseRoles(callerRoles);
  if (parseRoles(targetRoles).includes(creatorRole) && !held.includes(creatorRole)) return false;
  return coversRoles(held, targetRoles, table);
}

/** The roles of the table the caller may give (canGrantRoles, one role at a time), in table order. */
export function findGrantableRoles(
  callerRoles: string | readonly string[],
  table: RoleTable,
  creatorRole: string,
): string[] {
  return Object.keys(table).filter((role) => canGrantRoles(callerRoles, [role], table, creatorRole));
}

/**
 * A free seat below `limit` (null when every seat is taken), chosen at random among the lowest few
 * free ones so that concurrent callers that read the same taken list spread over different seats.
 * Without a limit (Infinity) there is always a free seat.
 */
export function pickFreeSeat(taken: readonly number[], limit: number, random: number): number | null {
  const used = new Set(taken);
  const upper = Number.isFinite(limit) ? limit : taken.length + 8;
  const free: number[] = [];
  for (let seat = 0; seat < upper && free.length < 8; seat++) if (!used.has(seat)) free.push(seat);
  if (free.length === 0) return null;
  return free[Math.min(free.length - 1, Math.floor(random * free.length))] as number;
}
