import type { Collections } from "../db/collections.ts";

/**
 * Explicit garbage collection (no TTL indexes: FerretDB v1 has none). Reads already ignore expired
 * rows; this only reclaims space. Run by `auth.cleanup()` and `tessera cleanup`.
 */
export async function cleanupExpired(
  collections: Collections,
  now: Date,
): Promise<{ sessions: number; verifications: number; rateLimits: number }> {
  const expired = { expiresAt: { $lte: now } };
  const [sessions, verifications, rateLimits] = await Promise.all([
    collections.sessions.deleteMany(expired),
    collections.verifications.deleteMany(expired),
    collections.rateLimits.deleteMany(expired),
  ]);
  return {
    sessions: sessions.deletedCount,
    verifications: verifications.deletedCount,
    rateLimits: rateLimits.deletedCount,
  };
}
