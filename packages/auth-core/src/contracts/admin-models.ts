import { z } from "zod";
import { accountModel } from "./account-models.ts";
import { defineModel, type ModelValue, modelShape, omitFields, pickFields, replaceField } from "./model.ts";
import { sessionModel, userModel } from "./models.ts";

/**
 * The shapes the admin endpoints answer with, each a named interface with a schema annotated to
 * produce exactly it (see models.ts).
 */

/**
 * A user as the admin area shows it: the user's declaration (models.ts userModel) with its roles
 * worked out — comma separated, the default role when none is stored — and the ban state.
 */
export const adminUserModel = replaceField(userModel, { key: "role", kind: "string", computed: true });

export type AdminUser = ModelValue<typeof adminUserModel>;

export const adminUserSchema: z.ZodType<AdminUser> = z.strictObject(modelShape(adminUserModel));

/** The answer of the admin actions on one user (create, set-role, ban, unban). */
export interface AdminUserResult {
  user: AdminUser;
}

export const adminUserResultSchema: z.ZodType<AdminUserResult> = z.strictObject({ user: adminUserSchema });

export interface ListUsersResult {
  users: AdminUser[];
  /** How many users match the search and filter (all pages). */
  total: number;
  limit: number;
  offset: number;
}

export const listUsersResultSchema: z.ZodType<ListUsersResult> = z.strictObject({
  users: z.array(adminUserSchema),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

/**
 * A session as the admin area shows it: the session's declaration (models.ts sessionModel) without
 * the token — a bearer credential never leaves through a listing; `id` is what revoke-user-session
 * takes — and naming impersonation explicitly: the admin's id, or null for the user's own session.
 */
export const adminSessionModel = replaceField(omitFields(sessionModel, ["token"]), {
  key: "impersonatedBy",
  kind: "objectId",
  nullable: "or absent",
});

export type AdminSession = ModelValue<typeof adminSessionModel>;

export const adminSessionSchema: z.ZodType<AdminSession> = z.strictObject(modelShape(adminSessionModel));

export interface AdminSessionList {
  sessions: AdminSession[];
}

export const adminSessionListSchema: z.ZodType<AdminSessionList> = z.strictObject({
  sessions: z.array(adminSessionSchema),
});

/**
 * One entry of the audit trail, declared once: its API value, schema, stored document
 * (db/documents.ts AuditEventDoc), the admin listing's mapper and the export's view
 * (contracts/user-export.ts) come from this list. `action`: e.g. "impersonation.start", "user.ban"
 * (features/admin/rules.ts AUDIT_ACTIONS lists them). Who acted (the admin, `actorId`) and on whom;
 * `actor` names an operator acting from a terminal (e.g. "cli:alice", the tessera CLI) when actorId
 * is null, absent on rows written before it existed. `details`: action-specific facts, e.g. the
 * roles before and after a role change, keys chosen by the server.
 */
export const auditEventModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "action", kind: "string" },
  { key: "actorId", kind: "objectId", nullable: true },
  { key: "actor", kind: "string", nullable: "or absent" },
  { key: "subjectId", kind: "objectId", nullable: true },
  { key: "reason", kind: "string", nullable: true },
  { key: "ipAddress", kind: "string", nullable: true },
  { key: "userAgent", kind: "string", nullable: true },
  { key: "details", kind: "object", nullable: true },
  { key: "createdAt", kind: "date" },
]);

export type AuditEvent = ModelValue<typeof auditEventModel>;

export const auditEventSchema: z.ZodType<AuditEvent> = z.strictObject(modelShape(auditEventModel));

export interface AuditEventList {
  events: AuditEvent[];
  /** How many events match (all pages). */
  total: number;
  limit: number;
  offset: number;
}

export const auditEventListSchema: z.ZodType<AuditEventList> = z.strictObject({
  events: z.array(auditEventSchema),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

/** Better Auth's has-permission answer: `error` is always null, a refusal is `success: false`. */
export interface PermissionCheck {
  error: null;
  success: boolean;
}

export const permissionCheckSchema: z.ZodType<PermissionCheck> = z.strictObject({
  error: z.null(),
  success: z.boolean(),
});

/**
 * A user's linked account as the admin area shows it (account-models.ts accountModel): which
 * provider (`credential` for the email-and-password account) and which identity there, since when.
 * Never a token, an id token or a password hash (docs/security.md).
 */
export const adminLinkedAccountModel = pickFields(accountModel, [
  "id",
  "providerId",
  "accountId",
  "createdAt",
]);

export type AdminLinkedAccount = ModelValue<typeof adminLinkedAccountModel>;

export interface AdminLinkedAccountList {
  accounts: AdminLinkedAccount[];
}

export const adminLinkedAccountListSchema: z.ZodType<AdminLinkedAccountList> = z.strictObject({
  accounts: z.array(z.strictObject(modelShape(adminLinkedAccountModel))),
});

/** How many users hold a role; a user with several roles counts once under each. */
export interface RoleCount {
  role: string;
  count: number;
}

/** Sign-ups on one UTC day, `day` as YYYY-MM-DD. */
export interface DayCount {
  day: string;
  count: number;
}

/** The admin dashboard's totals, over every user (no listing cap). */
export interface AdminStats {
  totalUsers: number;
  /** Users whose ban is in force (an expired ban does not count). */
  bannedUsers: number;
  verifiedUsers: number;
  /** Most first. */
  usersByRole: RoleCount[];
  /** The last 30 UTC days, oldest first, today last; days without sign-ups count 0. */
  signUpsPerDay: DayCount[];
  /** Unexpired sessions, impersonations included. */
  activeSessions: number;
}

const countField = z.number().int().min(0);

export const adminStatsSchema: z.ZodType<AdminStats> = z.strictObject({
  totalUsers: countField,
  bannedUsers: countField,
  verifiedUsers: countField,
  usersByRole: z.array(z.strictObject({ role: z.string(), count: countField })),
  signUpsPerDay: z.array(z.strictObject({ day: z.string(), count: countField })),
  activeSessions: countField,
});
