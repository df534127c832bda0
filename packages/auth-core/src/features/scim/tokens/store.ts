import type { Collections } from "../../../db/collections.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import type { ScimTokenDoc } from "../../../db/documents.ts";
import type { ObjectId } from "../../../db/ids.ts";

/**
 * The owner of `scimTokens` (docs/architecture.md "One owner per collection"). Indexes:
 * db/migrations/0018-scim.ts — `tokenHash` unique, (organizationId, providerId) unique.
 * Token rows carry no events: they are configuration, audited (organization.scim-token-*), not data
 * a webhook subscriber follows.
 */

/**
 * Stores the connection's token, replacing its previous row (rotation: that token stops at once).
 * Answers the replaced row, or null. A concurrent rotation of the same connection that inserts first
 * makes this one retry (the (organizationId, providerId) index keeps one row), so the last one wins.
 */
export async function replaceScimToken(
  collections: Collections,
  doc: ScimTokenDoc,
): Promise<ScimTokenDoc | null> {
  for (let attempt = 0; ; attempt++) {
    const previous = await collections.scimTokens.findOneAndDelete({
      organizationId: doc.organizationId,
      providerId: doc.providerId,
    });
    try {
      await collections.scimTokens.insertOne(doc);
      return previous;
    } catch (error) {
      if (!isDuplicateKeyError(error) || attempt > 2) throw error;
    }
  }
}

/** One indexed read per SCIM request (`tokenHash` unique). */
export function findScimTokenByHash(
  collections: Collections,
  tokenHash: string,
): Promise<ScimTokenDoc | null> {
  return collections.scimTokens.findOne({ tokenHash });
}

/** The organization's connections, oldest first. */
export function listScimTokens(collections: Collections, organizationId: ObjectId): Promise<ScimTokenDoc[]> {
  return collections.scimTokens.find({ organizationId }).sort({ createdAt: 1, _id: 1 }).toArray();
}

export function deleteScimToken(
  collections: Collections,
  organizationId: ObjectId,
  providerId: string,
): Promise<ScimTokenDoc | null> {
  return collections.scimTokens.findOneAndDelete({ organizationId, providerId });
}
