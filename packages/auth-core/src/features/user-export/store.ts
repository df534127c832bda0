/**
 * The export's reads of collections whose owners have no read of one user's rows on their face
 * (invitations by address and by inviter, team rows, API keys, the second factor, the audit trail,
 * organization names). Reads only: every write stays with the collection's owner. Each filter has
 * an index behind it (the invitations by inviter and the team rows by user: migration 0011).
 */
import type { Collections } from "../../db/collections.ts";
import type {
  ApiKeyDoc,
  AuditEventDoc,
  InvitationDoc,
  OrganizationDoc,
  TeamMemberDoc,
  TwoFactorDoc,
} from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";

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
      collections.teamMembers.find({ userId }).limit(MAX_ROWS).toArray(),
      collections.invitations
        .find({ email: { $eq: user.email } })
        .limit(MAX_ROWS)
        .toArray(),
      collections.invitations.find({ inviterId: userId }).limit(MAX_ROWS).toArray(),
      collections.apiKeys.find({ userId }).limit(MAX_ROWS).toArray(),
      collections.twoFactors.findOne({ userId }),
      collections.auditEvents
        .find({ subjectId: userId })
        .sort({ createdAt: 1, _id: 1 })
        .limit(MAX_ROWS)
        .toArray(),
    ]);
  return { teamMembers, invitationsReceived, invitationsSent, apiKeys, twoFactor, auditEvents };
}

/** The name and slug of each organization of `ids` that still exists. */
export async function findOrganizationNames(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<Map<string, { name: string; slug: string }>> {
  if (ids.length === 0) return new Map();
  const rows: Pick<OrganizationDoc, "_id" | "name" | "slug">[] = await collections.organizations
    .find({ _id: { $in: [...ids] } }, { projection: { _id: 1, name: 1, slug: 1 } })
    .toArray();
  return new Map(rows.map((row) => [row._id.toHexString(), { name: row.name, slug: row.slug }]));
}
