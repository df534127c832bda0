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
}

export async function cleanupExpired(collections: Collections, now: Date): Promise<CleanupResult> {
  const expired = { expiresAt: { $lte: now } };
  const [sessions, verifications, rateLimits, apiKeyUses] = await Promise.all([
    collections.sessions.deleteMany(expired),
    collections.verifications.deleteMany(expired),
    collections.rateLimits.deleteMany(expired),
    deleteExpiredKeyUses(collections, now),
  ]);
  return {
    sessions: sessions.deletedCount,
    verifications: verifications.deletedCount,
    rateLimits: rateLimits.deletedCount,
    apiKeyUses,
  };
}
