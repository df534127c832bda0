import { z } from "zod";
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

export interface Session {
  id: string;
  userId: string;
  token: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  /** Only on an admin's impersonation session: the admin's user id. */
  impersonatedBy?: string;
  /** Only when a team is active. */
  activeTeamId?: string;
}

export const sessionSchema: z.ZodType<Session> = z.strictObject({
  id: z.string(),
  userId: z.string(),
  token: z.string(),
  expiresAt: z.date(),
  createdAt: z.date(),
  updatedAt: z.date(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  activeOrganizationId: z.string().nullable(),
  impersonatedBy: z.string().optional(),
  activeTeamId: z.string().optional(),
});

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
