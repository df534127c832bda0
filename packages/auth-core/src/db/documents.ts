import type { ObjectId } from "mongodb";

/**
 * MongoDB document shapes (SPEC §3). `_id` is an ObjectId; the API exposes it as the 24-hex `id`
 * (conversion only in the store layer, DECISIONS.md "Identifiers and storage").
 */
export interface UserDoc {
  _id: ObjectId;
  /** Trimmed and lower-cased; unique index. */
  email: string;
  emailVerified: boolean;
  name: string;
  image: string | null;
  language?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionDoc {
  _id: ObjectId;
  userId: ObjectId;
  /** 32 chars [A-Za-z0-9]; unique index. */
  token: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  /** rememberMe false: short-lived, never refreshed. */
  dontRemember: boolean;
}

export interface AccountDoc {
  _id: ObjectId;
  /** "credential" is the email-and-password account. */
  providerId: string;
  accountId: string;
  userId: ObjectId;
  password: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scope: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VerificationDoc {
  _id: ObjectId;
  /** `reset-password:{token}`, `delete-account-{token}` (SPEC §3); unique index. */
  identifier: string;
  value: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface RateLimitDoc {
  /** `<ip>|<path>|<window index>`. */
  _id: string;
  count: number;
  expiresAt: Date;
}

export interface MigrationDoc {
  _id: string;
  appliedAt: Date;
}

export const CREDENTIAL_PROVIDER_ID = "credential";
