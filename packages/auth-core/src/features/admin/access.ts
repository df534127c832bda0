import type { PermissionRequest, RoleSet, Statements } from "../../config/admin-roles.ts";

export { DEFAULT_ADMIN_ROLES, type PermissionRequest, type RoleSet } from "../../config/admin-roles.ts";

/**
 * True when one role grants every action of the request (an empty request is granted).
 * @internal Exported for its unit test (access.test.ts).
 */
export function roleGrants(role: Statements, request: PermissionRequest): boolean {
  return Object.entries(request).every(([resource, actions]) => {
    const granted = Object.hasOwn(role, resource) ? role[resource] : undefined;
    return granted !== undefined && actions.every((action) => granted.includes(action));
  });
}

/**
 * a user may hold several roles (comma separated); any one role granting the whole request
 * suffices. Unknown role names grant nothing.
 */
export function rolesGrant(
  roles: RoleSet,
  roleNames: readonly string[],
  request: PermissionRequest,
): boolean {
  return roleNames.some((name) => Object.hasOwn(roles, name) && roleGrants(roles[name]!, request));
}

/** "admin, support" → ["admin", "support"]; empty or absent → the default role. */
export function parseRoleList(stored: string | undefined | null, defaultRole: string): string[] {
  const names = (stored ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  return names.length > 0 ? names : [defaultRole];
}
