import { z } from "zod";
import {
  AUDIT_ACTIONS,
  banExpiresInField,
  listUsersQuery,
  permissionsField,
  queryInt,
  reasonField,
  roleField,
  userIdField,
} from "./admin-fields.ts";
import {
  adminLinkedAccountListSchema,
  adminSessionListSchema,
  adminStatsSchema,
  adminUserResultSchema,
  adminUserSchema,
  auditEventListSchema,
  listUsersResultSchema,
  permissionCheckSchema,
} from "./admin-models.ts";
import { defineContract } from "./contract.ts";
import { sessionAndUserSchema, statusTrueSchema, successTrueSchema } from "./models.ts";
import { emailField, languageField, nameField, passwordField, tokenField, userURLField } from "./schemas.ts";

/**
 * every endpoint under /admin/. Each checks the caller's admin permission itself
 * (403 RESOURCE_ACCESS_NOT_ALLOWED) and refuses an impersonation session (NOT_ALLOWED_WHILE_IMPERSONATING).
 */
const GUARD = ["RESOURCE_ACCESS_NOT_ALLOWED", "NOT_ALLOWED_WHILE_IMPERSONATING"] as const;

export const listUsersContract = defineContract({
  name: "listUsers",
  method: "GET",
  path: "/admin/list-users",
  auth: "session",
  query: listUsersQuery,
  response: listUsersResultSchema,
  errors: [...GUARD],
  summary: "Searches, filters, sorts and pages the users (at most 100 a page), with the total.",
  tags: ["admin"],
});

export const getUserContract = defineContract({
  name: "getUser",
  method: "GET",
  path: "/admin/get-user",
  auth: "session",
  query: z.strictObject({ id: userIdField }),
  response: adminUserSchema,
  errors: [...GUARD, "USER_NOT_FOUND"],
  summary: "One user with their role and ban state.",
  tags: ["admin"],
});

export const createUserContract = defineContract({
  name: "createUser",
  method: "POST",
  path: "/admin/create-user",
  auth: "session",
  body: z.strictObject({
    email: emailField,
    password: passwordField.optional(),
    name: nameField,
    role: roleField.optional(),
    /** The user's language for mails and pages: one of the eight codes or a BCP 47 tag of theirs (VALIDATION_ERROR otherwise). */
    language: languageField.optional(),
    data: z
      .strictObject({ image: userURLField.optional(), emailVerified: z.boolean().optional() })
      .optional(),
  }),
  response: adminUserResultSchema,
  errors: [
    ...GUARD,
    "INVALID_EMAIL",
    "INVALID_ROLE",
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "USER_ALREADY_EXISTS",
    "FAILED_TO_CREATE_USER",
    "UNABLE_TO_CREATE_ACCOUNT",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
  ],
  summary: "Creates a user, with a password (and credential account) or without one, and a role.",
  tags: ["admin"],
});

export const adminUpdateUserContract = defineContract({
  name: "adminUpdateUser",
  method: "POST",
  path: "/admin/update-user",
  auth: "session",
  // Strict: a password, a role or ban fields are refused — each has its own endpoint and permission.
  body: z.strictObject({
    userId: userIdField,
    data: z.strictObject({
      name: nameField.optional(),
      image: userURLField.optional(),
      email: emailField.optional(),
      emailVerified: z.boolean().optional(),
    }),
  }),
  // The user itself, not `{ user }` as the other actions on a user answer.
  response: adminUserSchema,
  errors: [
    ...GUARD,
    "NO_FIELDS_TO_UPDATE",
    "USER_NOT_FOUND",
    "USER_ALREADY_EXISTS",
    "FAILED_TO_UPDATE_USER",
    "RESOURCE_ACCESS_NOT_ALLOWED",
  ],
  summary: "Changes a user's name, image, email or email verification.",
  tags: ["admin"],
});

export const setRoleContract = defineContract({
  name: "setRole",
  method: "POST",
  path: "/admin/set-role",
  auth: "session",
  body: z.strictObject({ userId: userIdField, role: roleField }),
  response: adminUserResultSchema,
  errors: [
    ...GUARD,
    "INVALID_ROLE",
    "USER_NOT_FOUND",
    "FAILED_TO_UPDATE_USER",
    "RESOURCE_ACCESS_NOT_ALLOWED",
  ],
  summary: "Sets a user's role: one configured role or a list of them.",
  tags: ["admin"],
});

export const banUserContract = defineContract({
  name: "banUser",
  method: "POST",
  path: "/admin/ban-user",
  auth: "session",
  body: z.strictObject({
    userId: userIdField,
    banReason: reasonField.optional(),
    /** Seconds; without it the ban lasts until unban-user (or `admin.defaultBanExpiresIn`). */
    banExpiresIn: banExpiresInField.optional(),
  }),
  response: adminUserResultSchema,
  errors: [
    ...GUARD,
    "USER_NOT_FOUND",
    "CANNOT_BAN_YOURSELF",
    "FAILED_TO_UPDATE_USER",
    "RESOURCE_ACCESS_NOT_ALLOWED",
  ],
  summary: "Bans a user and ends every session they have.",
  tags: ["admin"],
});

export const unbanUserContract = defineContract({
  name: "unbanUser",
  method: "POST",
  path: "/admin/unban-user",
  auth: "session",
  body: z.strictObject({ userId: userIdField }),
  response: adminUserResultSchema,
  errors: [...GUARD, "USER_NOT_FOUND", "FAILED_TO_UPDATE_USER"],
  summary: "Lifts a user's ban.",
  tags: ["admin"],
});

export const impersonateUserContract = defineContract({
  name: "impersonateUser",
  method: "POST",
  path: "/admin/impersonate-user",
  auth: "session",
  setsSessionCookies: true,
  body: z.strictObject({ userId: userIdField, reason: reasonField.optional() }),
  response: sessionAndUserSchema,
  errors: [
    ...GUARD,
    "USER_NOT_FOUND",
    "CANNOT_IMPERSONATE_YOURSELF",
    "CANNOT_IMPERSONATE_BANNED_USER",
    "CANNOT_IMPERSONATE_ADMINS",
    "FAILED_TO_CREATE_SESSION",
  ],
  summary: "Signs the admin in as another user for a limited time, keeping the admin's session aside.",
  notes: "The impersonation session lasts 1 hour.",
  tags: ["admin"],
});

export const stopImpersonatingContract = defineContract({
  name: "stopImpersonating",
  method: "POST",
  path: "/admin/stop-impersonating",
  auth: "session",
  setsSessionCookies: true,
  response: sessionAndUserSchema,
  // 401 when the admin's own session cannot be restored: every session cookie is cleared.
  errors: ["NOT_IMPERSONATING", "UNAUTHORIZED"],
  summary: "Ends an impersonation and restores the admin's own session.",
  tags: ["admin"],
});

export const listUserSessionsContract = defineContract({
  name: "listUserSessions",
  method: "POST",
  path: "/admin/list-user-sessions",
  auth: "session",
  body: z.strictObject({ userId: userIdField }),
  response: adminSessionListSchema,
  errors: [...GUARD, "USER_NOT_FOUND"],
  summary: "A user's unexpired sessions, without tokens, impersonations marked.",
  tags: ["admin"],
});

export const revokeUserSessionContract = defineContract({
  name: "revokeUserSession",
  method: "POST",
  path: "/admin/revoke-user-session",
  auth: "session",
  // Exactly one: the `id` list-user-sessions shows, or the token.
  body: z
    .strictObject({ sessionToken: tokenField.optional(), sessionId: userIdField.optional() })
    .refine((body) => (body.sessionToken === undefined) !== (body.sessionId === undefined), {
      message: "sessionToken or sessionId, exactly one",
    }),
  response: successTrueSchema,
  errors: [...GUARD, "SESSION_NOT_FOUND", "USER_NOT_FOUND"],
  summary: "Ends one session of any user, named by its id or token.",
  tags: ["admin"],
});

export const revokeUserSessionsContract = defineContract({
  name: "revokeUserSessions",
  method: "POST",
  path: "/admin/revoke-user-sessions",
  auth: "session",
  body: z.strictObject({ userId: userIdField }),
  response: successTrueSchema,
  errors: [...GUARD, "USER_NOT_FOUND"],
  summary: "Ends every session of a user and the impersonations they started.",
  tags: ["admin"],
});

export const removeUserContract = defineContract({
  name: "removeUser",
  method: "POST",
  path: "/admin/remove-user",
  auth: "session",
  body: z.strictObject({ userId: userIdField }),
  response: successTrueSchema,
  errors: [
    ...GUARD,
    "USER_NOT_FOUND",
    "CANNOT_REMOVE_YOURSELF",
    "SOLE_OWNER_CANNOT_BE_DELETED",
    "DELETE_USER_REFUSED",
    "RESOURCE_ACCESS_NOT_ALLOWED",
  ],
  summary: "Deletes a user and their data, as their own account deletion would.",
  tags: ["admin"],
});

export const setUserPasswordContract = defineContract({
  name: "setUserPassword",
  method: "POST",
  path: "/admin/set-user-password",
  auth: "session",
  body: z.strictObject({ userId: userIdField, newPassword: passwordField }),
  response: statusTrueSchema,
  errors: [
    ...GUARD,
    "PASSWORD_TOO_SHORT",
    "PASSWORD_TOO_LONG",
    "USER_NOT_FOUND",
    "FAILED_TO_UPDATE_USER",
    "UNABLE_TO_CREATE_ACCOUNT",
    "PASSWORD_COMPROMISED",
    "PASSWORD_CONTEXT_SPECIFIC",
    "RESOURCE_ACCESS_NOT_ALLOWED",
  ],
  summary: "Sets a user's password (to be reset before it signs them in) and ends their sessions.",
  notes: "Ends the user's sessions; the user must reset it before signing in.",
  tags: ["admin"],
});

export const userHasPermissionContract = defineContract({
  name: "userHasPermission",
  method: "POST",
  path: "/admin/has-permission",
  // Optional: server code may ask about any `userId` or `role`; over HTTP only about the caller.
  auth: "optional",
  httpCredentials: ["session"],
  body: z.strictObject({
    permissions: permissionsField,
    userId: userIdField.optional(),
    role: roleField.optional(),
  }),
  response: permissionCheckSchema,
  errors: ["UNAUTHORIZED", "RESOURCE_ACCESS_NOT_ALLOWED", "USER_NOT_FOUND"],
  summary: "Whether the caller (or, from server code, a user or role) holds admin-area permissions.",
  notes: "Server code may ask for any `userId` or `role`.",
  tags: ["admin"],
});

export const listAuditEventsContract = defineContract({
  name: "listAuditEvents",
  method: "GET",
  path: "/admin/list-audit-events",
  auth: "session",
  query: z.strictObject({
    actorId: userIdField.optional(),
    subjectId: userIdField.optional(),
    /** One of the audit trail's actions, matched exactly; any other value is VALIDATION_ERROR. */
    action: z.enum(AUDIT_ACTIONS).optional(),
    limit: queryInt.optional(),
    offset: queryInt.optional(),
  }),
  response: auditEventListSchema,
  errors: [...GUARD],
  summary: "The audit trail, newest first (at most 100 a page), by actor, subject or action, with the total.",
  notes:
    "Impersonations, bans, role and password changes, creations, removals; `?actorId&subjectId&action` (`action`: one of `AUDIT_ACTIONS`).",
  tags: ["admin"],
});

/**
 * Server-only (over HTTP it does not exist): the admin user page's linked accounts, for the admin
 * whose session the server forwards. Provider, identity and date only — no token, no password hash.
 */
export const adminListUserAccountsContract = defineContract({
  name: "adminListUserAccounts",
  method: "POST",
  path: "/admin/list-user-accounts",
  auth: "server-only",
  body: z.strictObject({ userId: userIdField }),
  response: adminLinkedAccountListSchema,
  errors: ["UNAUTHORIZED", ...GUARD, "USER_NOT_FOUND"],
  summary: "A user's linked accounts (provider, account id, date), without tokens or password hashes.",
  notes: "Answers `{ accounts: [{ id, providerId, accountId, createdAt }] }`; no tokens, no password hashes.",
  tags: ["admin"],
});

/**
 * Server-only: the admin dashboard's totals, counted by the database over every user — users, by
 * role, banned, verified, sign-ups per UTC day over the last 30 days, active sessions.
 */
export const getAdminStatsContract = defineContract({
  name: "getAdminStats",
  method: "GET",
  path: "/admin/stats",
  auth: "server-only",
  response: adminStatsSchema,
  errors: ["UNAUTHORIZED", ...GUARD],
  summary: "Totals for a dashboard: users, by role, banned, verified, daily sign-ups, active sessions.",
  notes: "Totals over every user: by role, banned, verified, sign-ups per day (30 days), active sessions.",
  tags: ["admin"],
});
