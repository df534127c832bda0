import { z } from "zod";
import { defineModel, type ModelValue, modelShape } from "./model.ts";
import { languageCodeField } from "./schemas.ts";

/**
 * The shapes the API answers with, shared by several endpoints. Each is a named interface (editors
 * and `tsc` stay fast: types are read, not inferred through schemas) with a schema that must produce
 * exactly it — the annotation makes the compiler check that the two agree. Ids are 24-hex strings;
 * dates are `Date` for server code and ISO strings on the wire.
 */
export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  image: string | null;
  /** Only once the user chose one (update-user): the language of their mails and pages. */
  language?: "ENG" | "RUS" | "UKR" | "SPA" | "GERMAN" | "POL" | "FRA" | "TURKEY";
  /** Only when a confirmed second factor guards the user's sign-ins (an account page shows it). */
  twoFactorEnabled?: true;
  createdAt: Date;
  updatedAt: Date;
}

export const userSchema: z.ZodType<User> = z.strictObject({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  name: z.string(),
  image: z.string().nullable(),
  language: languageCodeField.optional(),
  twoFactorEnabled: z.literal(true).optional(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

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
