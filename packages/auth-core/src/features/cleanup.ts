import type { Collections } from "../db/collections.ts";
import { deleteExpiredKeyUses } from "./api-key/store.ts";

/**
 * Explicit garbage collection (no TTL indexes: FerretDB v1 has none). Reads already ignore expired
 * rows; this only reclaims space. Run by `auth.cleanup()` and `tessera cleanup`.
 */
export interface CleanupResult {
  sessions: number;
  verifications: number;
  rateLimits: number;
  apiKeyUses: number;
  /** Expired API keys (they already verify as expired). */
  apiKeys: number;
  /** Pending invitations past their expiry; accepted, rejected and canceled ones are kept. */
  invitations: number;
}

export async function cleanupExpired(collections: Collections, now: Date): Promise<CleanupResult> {
  const expired = { expiresAt: { $lte: now } };
  const [sessions, verifications, rateLimits, apiKeyUses, apiKeys, invitations] = await Promise.all([
    collections.sessions.deleteMany(expired),
    collections.verifications.deleteMany(expired),
    collections.rateLimits.deleteMany(expired),
    deleteExpiredKeyUses(collections, now),
    // `expiresAt: null` (a key that never expires) does not compare as ≤ a date: it stays.
    collections.apiKeys.deleteMany(expired),
    collections.invitations.deleteMany({ status: "pending", ...expired }),
  ]);
  return {
    sessions: sessions.deletedCount,
    verifications: verifications.deletedCount,
    rateLimits: rateLimits.deletedCount,
    apiKeyUses,
    apiKeys: apiKeys.deletedCount,
    invitations: invitations.deletedCount,
  };
}
