import type { Collections } from "../db/collections.ts";
import { deleteExpiredKeyUses } from "./api-key/index.ts";
import { reconcileUserTimeline } from "./users/index.ts";

/**
 * Explicit garbage collection (no TTL indexes: FerretDB v1 has none). Reads already ignore expired
 * rows; this only reclaims space. Run by `auth.cleanup()` and `tessera cleanup`.
 */
export interface CleanupResult {
  sessions: number;
  verifications: number;
  rateLimits: number;
  /** Slots of the per-recipient mail limit whose window has ended. */
  mailLimits: number;
  apiKeyUses: number;
  /** API keys expired for more than 30 days (until then they answer API_KEY_EXPIRED and are listed). */
  apiKeys: number;
  /** Pending invitations expired for more than 30 days; accepted, rejected and canceled ones are kept. */
  invitations: number;
  /** Users' timeline entries written or removed so that there is one per user (docs/scale.md). */
  userTimeline: number;
}

/** How long an expired API key or pending invitation stays visible before cleanup removes it. */
export const EXPIRED_SHOWN_FOR_MS = 30 * 86_400_000;

export async function cleanupExpired(collections: Collections, now: Date): Promise<CleanupResult> {
  const expired = { expiresAt: { $lte: now } };
  // Expired API keys and invitations are still shown to their owners (list endpoints; a key answers
  // API_KEY_EXPIRED, an invitation can still be canceled — docs/decisions.md): reclaimed a while later.
  const shownUntil = { expiresAt: { $lte: new Date(now.getTime() - EXPIRED_SHOWN_FOR_MS) } };
  const [sessions, verifications, rateLimits, mailLimits, apiKeyUses, apiKeys, invitations, userTimeline] =
    await Promise.all([
      collections.sessions.deleteMany(expired),
      collections.verifications.deleteMany(expired),
      collections.rateLimits.deleteMany(expired),
      collections.mailLimits.deleteMany(expired),
      deleteExpiredKeyUses(collections, now),
      // `expiresAt: null` (a key that never expires) does not compare as ≤ a date: it stays.
      collections.apiKeys.deleteMany(shownUntil),
      collections.invitations.deleteMany({ status: "pending", ...shownUntil }),
      reconcileUserTimeline(collections, now),
    ]);
  return {
    sessions: sessions.deletedCount,
    verifications: verifications.deletedCount,
    rateLimits: rateLimits.deletedCount,
    mailLimits: mailLimits.deletedCount,
    apiKeyUses,
    apiKeys: apiKeys.deletedCount,
    invitations: invitations.deletedCount,
    userTimeline,
  };
}
