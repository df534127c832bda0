import { z } from "zod";

/** An id as sent; checked for 24 hex characters by parseId before it reaches the database. */
export const userIdField = z.string().min(1).max(64);
/** One role or several (stored comma separated, the permission rules (docs/guide.md "Organizations")); each is checked against the configured roles. */
export const roleField = z.union([z.string().max(64), z.array(z.string().max(64)).min(1).max(20)]);
/** `{ resource: [action, …] }`: a few short names, never an operator object. */
export const permissionsField = z
  .record(z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(20))
  .refine((value) => Object.keys(value).length > 0 && Object.keys(value).length <= 20, "1 to 20 resources");
export const reasonField = z.string().trim().min(1).max(1000);
/** A ban length in seconds: positive, at most 100 years; Infinity, -1 or "1e309" are refused. */
export const banExpiresInField = z
  .number()
  .int()
  .positive()
  .max(100 * 365 * 86400);

/**
 * The audit trail's actions. Here, with the contracts, so that
 * list-audit-events can accept exactly these as its `action` filter and a browser can list them;
 * features/admin/rules.ts re-exports them for the feature.
 */
export const AUDIT_ACTIONS = [
  "impersonation.start",
  "impersonation.stop",
  "user.create",
  "user.ban",
  "user.unban",
  "user.set-role",
  "user.set-password",
  "user.remove",
  "user.update",
  "session.revoke",
  "session.revoke-all",
  // An admin's removal of a user's passkey (a lost or stolen authenticator).
  "passkey.remove",
  // An operator's organization changes (operator.ts at the package root: the tessera CLI).
  "organization.add-member",
  "organization.remove-member",
  "organization.set-member-role",
  "organization.delete",
  "organization.invite",
  // Team memberships and team roles, by an organization role or a team admin (docs/security.md "Team roles").
  "organization.add-team-member",
  "organization.remove-team-member",
  "organization.set-team-member-role",
  // Verified domains (features/sso-domains): by an organization's owner or admin, or an operator.
  "organization.domain-claim",
  "organization.domain-verify",
  "organization.domain-remove",
  "organization.domain-settings",
  // A verified domain's auto-join made the user a member; an owner's break-glass password sign-in
  // past the domain's require-SSO (docs/security.md "Verified domains").
  "organization.domain-auto-join",
  "organization.sso-break-glass",
  // SSO connections (features/sso): registered, changed, deleted by an owner or admin; a sign-in
  // through one (the user, whether new, and whether the sign-in made them a member).
  "organization.sso-register",
  "organization.sso-update",
  "organization.sso-delete",
  "organization.sso-test",
  "organization.sso-sign-in",
  // The expiring setup link for the customer's IT admin (features/sso/setup-link.ts): sent by an
  // owner or admin, opened once; what it then changes is audited with actor `setup-link:<id>`.
  "organization.sso-setup-link",
  "organization.sso-setup-open",
  // SCIM tokens (features/scim/tokens): made (or rotated) and revoked by an owner or admin.
  "organization.scim-token-create",
  "organization.scim-token-revoke",
  // SCIM groups (features/scim/groups): the team a directory's group made, renamed or removed.
  "organization.scim-group-create",
  "organization.scim-group-update",
  "organization.scim-group-delete",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Listings answer at most this many per page. */
export const MAX_PAGE_SIZE = 100;

/** Query integers arrive as strings over HTTP and as numbers from server code. */
export const queryInt = z
  .union([z.number().int(), z.string().regex(/^\d{1,9}$/)])
  .transform((value) => Number(value))
  .pipe(z.number().int().min(0).max(1_000_000_000));

const TEXT_OPERATORS = ["eq", "ne", "contains", "starts_with", "ends_with"] as const;
/** The fields list-users may filter on, and how each is compared (features/admin/list-users-query.ts). */
export const USER_FILTER_FIELDS = {
  email: "text",
  name: "text",
  role: "text",
  banned: "boolean",
  emailVerified: "boolean",
  createdAt: "date",
} as const;
export type UserFilterField = keyof typeof USER_FILTER_FIELDS;

/**
 * GET /admin/list-users input. Every field, operator and sort key comes from a whitelist and every
 * value is a string, so no request can reach an operator or a field it was not given
 * (docs/security.md A); the server matches the values literally.
 */
export const listUsersQuery = z
  .strictObject({
    searchValue: z.string().max(256).optional(),
    searchField: z.enum(["email", "name"]).optional(),
    searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
    limit: queryInt.optional(),
    offset: queryInt.optional(),
    sortBy: z.enum(["email", "name", "createdAt", "updatedAt", "role"]).optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    filterField: z
      .enum(Object.keys(USER_FILTER_FIELDS) as [UserFilterField, ...UserFilterField[]])
      .optional(),
    filterValue: z.string().max(256).optional(),
    filterOperator: z.enum([...TEXT_OPERATORS, "lt", "lte", "gt", "gte"]).optional(),
  })
  .superRefine((query, ctx) => {
    if ((query.filterField === undefined) !== (query.filterValue === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["filterValue"],
        message: "filterField and filterValue go together",
      });
      return;
    }
    if (query.filterField === undefined || query.filterValue === undefined) return;
    const problem = checkFilter(query.filterField, query.filterOperator ?? "eq", query.filterValue);
    if (problem) ctx.addIssue({ code: "custom", path: ["filterOperator"], message: problem });
  });
export type ListUsersQuery = z.output<typeof listUsersQuery>;

function checkFilter(field: UserFilterField, operator: string, value: string): string | null {
  const kind = USER_FILTER_FIELDS[field];
  if (kind === "text")
    return (TEXT_OPERATORS as readonly string[]).includes(operator) ? null : "bad operator";
  if (kind === "boolean") {
    if (operator !== "eq" && operator !== "ne") return "bad operator";
    return value === "true" || value === "false" ? null : "expected true or false";
  }
  if (!["eq", "ne", "lt", "lte", "gt", "gte"].includes(operator)) return "bad operator";
  return Number.isNaN(Date.parse(value)) ? "expected a date" : null;
}
