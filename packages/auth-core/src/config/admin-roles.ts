/*
 * The admin area's roles as an option (`admin.roles`): the statements a role may grant, the default
 * roles, and the startup check of a configured set. The grant rules are features/admin/access.ts.
 */
/**
 * Roles as statements, the same shape organizations use: a role grants,
 * per resource, a list of actions; a request names, per resource, the actions it needs. Pure.
 */
export type Statements = Readonly<Record<string, readonly string[]>>;
export type RoleSet = Readonly<Record<string, Statements>>;
/** What a caller asks to do, e.g. `{ user: ["ban"] }`: every listed action is needed. */
export type PermissionRequest = Readonly<Record<string, readonly string[]>>;

/** Every resource and action of the admin area; custom roles may grant only these. */
export const ADMIN_STATEMENTS = {
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "impersonate",
    "impersonate-admins",
    // Acting on another admin (set-password, email, ban, remove, set-role).
    "manage-admins",
    "delete",
    "set-password",
    "set-email",
    "get",
    "update",
  ],
  session: ["list", "revoke", "delete"],
  audit: ["list"],
  // The app-wide webhook endpoints (features/webhooks): register, change, rotate, replay, read deliveries.
  webhook: ["manage"],
} as const satisfies Statements;

/**
 * Default roles (docs/decisions/0013-admin.md "Admin"): admin can do everything but impersonate or manage other
 * admins (`admin.allowImpersonatingAdmins`, a custom role with impersonate-admins / manage-admins,
 * or `adminUserIds` lift that): one admin account taken over must not take over the others. User
 * can do none of it.
 */
export const DEFAULT_ADMIN_ROLES: RoleSet = {
  admin: {
    user: ADMIN_STATEMENTS.user.filter(
      (action) => action !== "impersonate-admins" && action !== "manage-admins",
    ),
    session: ADMIN_STATEMENTS.session,
    audit: ADMIN_STATEMENTS.audit,
    webhook: ADMIN_STATEMENTS.webhook,
  },
  user: {},
};

/**
 * A role set for options: every role may only grant statements that exist; a configuration mistake
 * is reported at startup naming the role (docs/architecture.md "Errors").
 */
export function findInvalidGrant(roles: RoleSet, statements: Statements): string | null {
  for (const [name, role] of Object.entries(roles)) {
    for (const [resource, actions] of Object.entries(role)) {
      const known = Object.hasOwn(statements, resource) ? statements[resource] : undefined;
      if (!known) return `role "${name}" grants unknown resource "${resource}"`;
      const unknown = actions.find((action) => !known.includes(action));
      if (unknown !== undefined) return `role "${name}" grants unknown action "${resource}:${unknown}"`;
    }
  }
  return null;
}
