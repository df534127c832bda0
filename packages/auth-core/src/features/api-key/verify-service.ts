import type { AuthContext } from "../../context.ts";
import type { ApiKeyDoc, UserDoc } from "../../db/documents.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { type Refused, refused } from "../../errors/refusal.ts";
import { findUserById, isBanActive } from "../users/index.ts";
import { checkKeyState, currentUsagePeriod, hashApiKey, hasPermissions } from "./rules.ts";
import { findApiKeyByHash, insertUseClaim, readUsedSlots } from "./store.ts";

/**
 * A refused key: the catalogue code its answer carries, and (API_KEY_RATE_LIMITED) `tryAgainIn`, the
 * milliseconds until the key's rate limit admits a use again, which the answer carries as well.
 */
type ApiKeyRefusal = Refused & { details?: { tryAgainIn: number } };

export type ApiKeyCheck =
  | { valid: true; key: ApiKeyDoc; user: UserDoc; remaining: number | null }
  | { valid: false; refusal: ApiKeyRefusal };

/** Longer than any key create makes (32-char prefix + 128); longer input is not hashed. */
const MAX_KEY_LENGTH = 512;

/**
 * Each contended claim means another use was admitted, so a use normally settles within budget + 1
 * tries; the bound only stops an endless flood, answered "failed to update" (fail closed).
 */
const MAX_CLAIM_ATTEMPTS = 64;

const refuse = (code: ErrorCode, details?: { tryAgainIn: number }): ApiKeyCheck => ({
  valid: false,
  refusal: details ? { ...refused(code), details } : refused(code),
});

/**
 * Verifies a presented key and, when it passes, counts one use. Order: invalid (unknown hash,
 * deleted owner) → disabled → expired → permissions → banned owner → per-key rate limit → usage
 * limit. The rate limit is checked before a use is counted, so a throttled request costs no usage.
 * Never throws for a bad key: the refusal is the result (database failures do throw).
 */
export async function checkApiKey(
  auth: AuthContext,
  presented: string,
  required?: Record<string, string[]>,
  deadlineMs = Number.POSITIVE_INFINITY,
): Promise<ApiKeyCheck> {
  if (presented.length === 0 || presented.length > MAX_KEY_LENGTH) return refuse("API_KEY_INVALID");
  const key = await findApiKeyByHash(auth.collections, hashApiKey(presented));
  if (!key) return refuse("API_KEY_INVALID");
  const now = auth.now();
  const state = checkKeyState(key, now);
  if (state) return refuse(state);
  if (required && !hasPermissions(key.permissions, required)) {
    return refuse("RESOURCE_ACCESS_NOT_ALLOWED");
  }
  const user = await findUserById(auth.collections, key.userId);
  if (!user) return refuse("API_KEY_INVALID");
  // A banned user's keys stop working with the ban.
  if (isBanActive(user, now)) return refuse("BANNED_USER");
  if (key.rateLimitEnabled) {
    const rule = { window: key.rateLimitTimeWindow / 1000, max: key.rateLimitMax };
    // The engine's limiter (http/rate-limit.ts), kept in MongoDB whatever rateLimit.storage says.
    const decision = await auth.sharedRateLimiter.hit(`api-key:${key._id}`, rule, now, deadlineMs);
    if (!decision.allowed) {
      const tryAgainIn = decision.retryAfterSeconds * 1000;
      return refuse("API_KEY_RATE_LIMITED", { tryAgainIn });
    }
  }
  const use = await consumeUse(auth, key, now);
  if (use === "exhausted") return refuse("API_KEY_USAGE_EXCEEDED");
  if (use === "contended") return refuse("API_KEY_UPDATE_FAILED");
  return { valid: true, key, user, remaining: use.remaining };
}

/**
 * Counts one use against the key's current period (rules.ts currentUsagePeriod). The decision is a
 * unique insert of slot `used + 1`, never `$inc` or a compare-and-set update: FerretDB v1 lets
 * several concurrent callers "win" those (measured), but exactly one insert of an `_id` succeeds.
 * Slots above the budget are never inserted, so at most `budget` uses are admitted per period
 * however many race; a stale read only costs a retry.
 */
async function consumeUse(
  auth: AuthContext,
  key: ApiKeyDoc,
  now: Date,
): Promise<{ remaining: number | null } | "exhausted" | "contended"> {
  const period = currentUsagePeriod(key._id.toHexString(), key, now);
  if (period === null) return { remaining: null };
  for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
    const used = await readUsedSlots(auth.collections, period.claimPrefix);
    if (used >= period.budget) return "exhausted";
    const claim = { prefix: period.claimPrefix, slot: used + 1, keyId: key._id, expiresAt: period.endsAt };
    if (await insertUseClaim(auth.collections, claim)) return { remaining: period.budget - used - 1 };
  }
  return "contended";
}
