/**
 * `@tessera/auth-core/roles`: the organization role rules the core decides with, so an app's page
 * offers only what the core will allow (the core still checks every call). Pure and free of server
 * code, zod and node: imports: a browser may bundle it (tests/core/layering.test.ts,
 * tests/client/bundle.test.ts). The table in force is `buildRoleTable(options.organization.roles,
 * options.organization.creatorRole)`.
 */
export {
  buildRoleTable,
  canActOnMember,
  canGrantRoles,
  coversRoles,
  DEFAULT_ROLES,
  findGrantableRoles,
  hasPermission,
  holdsRole,
  ORGANIZATION_STATEMENTS,
  parseRoles,
  type RoleTable,
  type Statements,
} from "./features/organization/members/rules.ts";
