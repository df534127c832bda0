import { z } from "zod";
import { LANGUAGES } from "../i18n/languages.ts";
import { defineModel, type ModelValue, modelShape, omitFields } from "./model.ts";

/**
 * The shapes the API answers with, shared by several endpoints. Each is a named interface (editors
 * and `tsc` stay fast: types are read, not inferred through schemas) with a schema that must produce
 * exactly it — the annotation makes the compiler check that the two agree. Ids are 24-hex strings;
 * dates are `Date` for server code and ISO strings on the wire.
 */
/**
 * A user, declared once: the stored document's fields in the admin area's order (AdminUser is this
 * list with the role worked out), the API's User (omitFields below), the export's row
 * (contracts/user-export.ts) and their mappers and JSON writers (features/session/types.ts,
 * features/admin/rules.ts, features/user-export/rules.ts) come from it. `language` only once the
 * user chose one (update-user), `twoFactorEnabled` only while a confirmed second factor guards the
 * user's sign-ins: absent otherwise, so every other user's shape is unchanged. `role` holds the
 * admin-area roles, comma separated (absent: `admin.defaultRole`); a ban is in force while `banned`
 * and `banExpires` is null or in the future.
 */
export const userModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "email", kind: "string" },
  { key: "emailVerified", kind: "boolean" },
  { key: "name", kind: "string" },
  { key: "image", kind: "string", nullable: "or absent" },
  { key: "language", kind: "string", values: LANGUAGES, optional: "or empty" },
  { key: "twoFactorEnabled", kind: "flag", optional: "or empty" },
  { key: "createdAt", kind: "date" },
  { key: "updatedAt", kind: "date" },
  { key: "role", kind: "string", optional: true },
  { key: "banned", kind: "flag" },
  { key: "banReason", kind: "string", nullable: "or absent" },
  { key: "banExpires", kind: "date", nullable: "or absent" },
]);

/** The user as every endpoint answers it: without the admin area's role and ban fields. */
export const publicUserModel = omitFields(userModel, ["role", "banned", "banReason", "banExpires"]);

export type User = ModelValue<typeof publicUserModel>;

export const userSchema: z.ZodType<User> = z.strictObject(modelShape(publicUserModel));

/**
 * A session, declared once: its API value, schema and stored document (db/documents.ts SessionDoc),
 * its mapper (features/session/types.ts) and the cookie cache's way back to the document
 * (features/session/cookie-cache.ts) come from this list, in this order. `impersonatedBy` (the
 * admin's user id) is only on an admin's impersonation session, `activeTeamId` only while a team is
 * active: absent otherwise, so an ordinary session's shape is unchanged.
 */
export const sessionModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "userId", kind: "objectId" },
  { key: "token", kind: "string" },
  { key: "expiresAt", kind: "date" },
  { key: "createdAt", kind: "date" },
  { key: "updatedAt", kind: "date" },
  { key: "ipAddress", kind: "string", nullable: true },
  { key: "userAgent", kind: "string", nullable: true },
  { key: "activeOrganizationId", kind: "string", nullable: true },
  { key: "impersonatedBy", kind: "objectId", optional: true },
  { key: "activeTeamId", kind: "string", optional: "or null" },
]);

export type Session = ModelValue<typeof sessionModel>;

export const sessionSchema: z.ZodType<Session> = z.strictObject(modelShape(sessionModel));

export interface SessionAndUser {
  session: Session;
  user: User;
}

export const sessionAndUserSchema: z.ZodType<SessionAndUser> = z.strictObject({
  session: sessionSchema,
  user: userSchema,
});

/** `{ status: true }`: the answer of most actions that have nothing else to say. */
export const statusTrueSchema = z.strictObject({ status: z.literal(true) });
export const successTrueSchema = z.strictObject({ success: z.literal(true) });
