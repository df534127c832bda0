import type { Collections } from "../db/collections.ts";
import { isDuplicateKeyError } from "../db/connect.ts";

/**
 * Rate limiting (DECISIONS.md "Rate limits"): at most `max` admitted requests in any `window`
 * seconds per client and path — a sliding log, so a burst cannot pass twice the limit across a
 * window boundary, and a client is admitted again exactly `window` seconds after its oldest
 * admission.
 */
export interface RateLimitRule {
  window: number;
  max: number;
}

export interface RateLimitConfig {
  window: number;
  max: number;
  customRules: Record<string, RateLimitRule | false>;
}

// /delete-user and the two-factor settings take a password: a stolen session must not test
// guesses at the general rate.
const STRICT_AUTH_PATHS = [
  "/sign-in",
  "/sign-up",
  "/change-password",
  "/change-email",
  "/delete-user",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/get-totp-uri",
  "/two-factor/generate-backup-codes",
];
const MAIL_PATHS = ["/request-password-reset", "/forget-password", "/send-verification-email"];

/** The rule for a path (without the base path): custom rule, then the built-in special ones, then the default. */
export function ruleForPath(path: string, config: RateLimitConfig): RateLimitRule | null {
  const custom = config.customRules[path];
  if (custom !== undefined) return custom === false ? null : custom;
  if (MAIL_PATHS.some((prefix) => path === prefix)) return { window: 60, max: 3 };
  if (STRICT_AUTH_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return { window: 10, max: 3 };
  }
  if (path.startsWith("/two-factor/verify")) return { window: 10, max: 3 };
  return { window: config.window, max: config.max };
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  hit(key: string, rule: RateLimitRule, now: Date): Promise<RateLimitDecision>;
}

/** `expiresAt` of the admissions still inside the window, newest first. */
function decideFromLog(liveExpiries: readonly Date[], rule: RateLimitRule, now: Date): RateLimitDecision {
  if (liveExpiries.length < rule.max) return { allowed: true };
  // The slot frees when the oldest admission that still counts leaves the window.
  const frees = liveExpiries[rule.max - 1]!;
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((frees.getTime() - now.getTime()) / 1000)),
  };
}

const SEQUENCE_DIGITS = 12;
const idOf = (prefix: string, sequence: number) => prefix + String(sequence).padStart(SEQUENCE_DIGITS, "0");

/**
 * The log lives in MongoDB so that several instances share it. One document per admitted request,
 * `_id = <key>|<window>s|<sequence>`, never updated: FerretDB v1 does not apply `$inc`,
 * `findOneAndUpdate` or compare-and-set filters atomically under concurrency (measured: 20 parallel
 * `$inc` lost updates), but a unique `_id` insert is atomic. An admission claims the next
 * sequence number by inserting it; if another request claimed it first, the state changed and the
 * decision is taken again from a fresh read. Denied requests write nothing.
 */
export function createDatabaseRateLimiter(collections: Collections): RateLimiter {
  return {
    async hit(key, rule, now) {
      const prefix = `${key}|${rule.window}s|`;
      const range = { $gte: idOf(prefix, 0), $lte: prefix + "9".repeat(SEQUENCE_DIGITS) };
      // Each retry means another request was admitted, so after `max` retries the log is full.
      for (let attempt = 0; attempt <= rule.max + 2; attempt++) {
        const newest = await collections.rateLimits
          .find({ _id: range }, { projection: { _id: 1, count: 1, expiresAt: 1 } })
          .sort({ _id: -1 })
          .limit(rule.max)
          .toArray();
        const live = newest.filter((doc) => doc.expiresAt > now).map((doc) => doc.expiresAt);
        const decision = decideFromLog(live, rule, now);
        if (!decision.allowed) return decision;
        const sequence = (newest[0]?.count ?? 0) + 1;
        try {
          await collections.rateLimits.insertOne({
            _id: idOf(prefix, sequence),
            count: sequence,
            expiresAt: new Date(now.getTime() + rule.window * 1000),
          });
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          continue;
        }
        // Every `max` admissions, drop the entries older than the newest `max`: no decision reads
        // them, so a busy client keeps at most 2 × max documents (auth.cleanup() removes the rest).
        if (sequence % rule.max === 0 && sequence > rule.max) {
          await collections.rateLimits.deleteMany({
            _id: { $gte: range.$gte, $lte: idOf(prefix, sequence - rule.max) },
          });
        }
        return decision;
      }
      // Fail closed: endless contention is itself a flood.
      return { allowed: false, retryAfterSeconds: rule.window };
    },
  };
}

/** The same sliding log in process memory (one instance only; `rateLimit.storage: "memory"`). */
export function createMemoryRateLimiter(): RateLimiter {
  const logs = new Map<string, Date[]>();
  return {
    async hit(key, rule, now) {
      const id = `${key}|${rule.window}s`;
      if (logs.size > 100_000) {
        for (const [k, log] of logs) if (log.every((expiry) => expiry <= now)) logs.delete(k);
      }
      const live = (logs.get(id) ?? []).filter((expiry) => expiry > now);
      const decision = decideFromLog(live, rule, now);
      if (decision.allowed) live.unshift(new Date(now.getTime() + rule.window * 1000));
      logs.set(id, live);
      return decision;
    },
  };
}
