import type { Collections } from "../../db/collections.ts";
import type {
  ApiKeyDoc,
  AuditEventDoc,
  InvitationDoc,
  TeamMemberDoc,
  TwoFactorDoc,
} from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { findAuditEventsAbout } from "../admin/index.ts";
import { findUserApiKeys } from "../api-key/index.ts";
import {
  findInvitationsSentBy,
  findInvitationsToEmail,
  findOrganizationsByIds,
  findUserTeamMemberships,
} from "../organization/index.ts";
import { findTwoFactor } from "../two-factor/index.ts";

/**
 * The export's reads of one user's rows, each through its collection's owner (the organization,
 * api-key, two-factor and admin faces). Each read has an index behind it (the invitations by
 * inviter and the team rows by user: migration 0011).
 */

/** Rows beyond these are not listed (a user with more is an anomaly, not a data subject to serve whole). */
const MAX_ROWS = 10_000;

export interface StoredUserRows {
  teamMembers: TeamMemberDoc[];
  invitationsReceived: InvitationDoc[];
  invitationsSent: InvitationDoc[];
  apiKeys: ApiKeyDoc[];
  twoFactor: TwoFactorDoc | null;
  auditEvents: AuditEventDoc[];
}

export async function findStoredUserRows(
  collections: Collections,
  user: { _id: ObjectId; email: string },
): Promise<StoredUserRows> {
  const userId = user._id;
  const [teamMembers, invitationsReceived, invitationsSent, apiKeys, twoFactor, auditEvents] =
    await Promise.all([
      findUserTeamMemberships(collections, userId, MAX_ROWS),
      findInvitationsToEmail(collections, user.email, MAX_ROWS),
      findInvitationsSentBy(collections, userId, MAX_ROWS),
      findUserApiKeys(collections, userId, MAX_ROWS),
      findTwoFactor(collections, userId),
      findAuditEventsAbout(collections, userId, MAX_ROWS),
    ]);
  return { teamMembers, invitationsReceived, invitationsSent, apiKeys, twoFactor, auditEvents };
}

/** The name and slug of each organization of `ids` that still exists. */
export async function findOrganizationNames(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<Map<string, { name: string; slug: string }>> {
  const rows = await findOrganizationsByIds(collections, ids);
  return new Map(rows.map((row) => [row._id.toHexString(), { name: row.name, slug: row.slug }]));
}
