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
  /** Set by organization/set-active-team (teams on); absent on sessions that never had one. */
  activeTeamId?: string | null;
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

/** SPEC §3 Organization. `slug` has a unique index; `metadata` is a record stored as JSON text. */
export interface OrganizationDoc {
  _id: ObjectId;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  createdAt: Date;
}

/**
 * SPEC §3 Member. Unique (organizationId, userId). `role` may be a comma separated list. `seat` is a
 * number below the membership limit, unique per organization: the insert that claims it is what
 * keeps concurrent adds and accepts under the limit (features/organization/seats.ts).
 */
export interface MemberDoc {
  _id: ObjectId;
  organizationId: ObjectId;
  userId: ObjectId;
  role: string;
  createdAt: Date;
  teamId: ObjectId | null;
  seat: number;
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

/**
 * SPEC §3 Invitation. `slot` has a unique index: `pending:<organizationId>:<email>` while pending
 * (at most one pending invitation per address and organization), `closed:<id>` afterwards.
 * `teamId` is a comma separated list of team ids, or null.
 */
export interface InvitationDoc {
  _id: ObjectId;
  organizationId: ObjectId;
  email: string;
  role: string;
  status: InvitationStatus;
  teamId: string | null;
  inviterId: ObjectId;
  expiresAt: Date;
  createdAt: Date;
  slot: string;
}

/** SPEC §3 Team. */
export interface TeamDoc {
  _id: ObjectId;
  name: string;
  organizationId: ObjectId;
  createdAt: Date;
  updatedAt: Date | null;
}

/** A user in a team. Unique (teamId, userId) and (teamId, seat), as for members. */
export interface TeamMemberDoc {
  _id: ObjectId;
  teamId: ObjectId;
  organizationId: ObjectId;
  userId: ObjectId;
  createdAt: Date;
  seat: number;
}

export const CREDENTIAL_PROVIDER_ID = "credential";
