import { DEFAULT_ROLES, hasPermission, type RoleTable } from "../features/organization/members/rules.ts";

/** Whether a member's comma separated roles include `role` (the server's reading of a role list). */
export { holdsRole } from "../features/organization/members/rules.ts";

/** What `organization.checkRolePermission` is asked: a member's role(s) and the actions wanted. */
export interface RolePermissionQuery {
  /** One role, a comma separated list, or a list, as a member row holds them. */
  role: string | readonly string[];
  /** resource → actions, e.g. `{ invitation: ["create"] }`; every action must be granted. */
  permissions: Readonly<Record<string, readonly string[]>>;
}

/**
 * A synchronous permission check over the role table the server decides with: the very rule of
 * `@tessera/auth-core/roles` (hasPermission), so a page offers what the core will allow. The core
 * still checks every call; this only shapes what a page shows.
 */
export function createRolePermissionCheck(table: RoleTable = DEFAULT_ROLES) {
  return (query: RolePermissionQuery): boolean => hasPermission(query.role, query.permissions, table);
}
