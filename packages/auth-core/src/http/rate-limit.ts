import type { Collections } from "../db/collections.ts";
import { isDuplicateKeyError } from "../db/connect.ts";

/**
 * Fixed-window rate limiting (DECISIONS.md "Rate limits"). The counter lives in MongoDB so several
 * instances share it: one atomic upsert-and-increment per request, keyed by client, path and window.
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

const STRICT_AUTH_PATHS = ["/sign-in", "/sign-up", "/change-password", "/change-email"];
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

function windowBounds(rule: RateLimitRule, now: Date): { index: number; endsAt: Date } {
  const ms = rule.window * 1000;
  const index = Math.floor(now.getTime() / ms);
  return { index, endsAt: new Date((index + 1) * ms) };
}

function decide(count: number, rule: RateLimitRule, endsAt: Date, now: Date): RateLimitDecision {
  if (count <= rule.max) return { allowed: true };
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((endsAt.getTime() - now.getTime()) / 1000)),
  };
}

export function createDatabaseRateLimiter(collections: Collections): RateLimiter {
  return {
    async hit(key, rule, now) {
      const { index, endsAt } = windowBounds(rule, now);
      const id = `${key}|${rule.window}|${index}`;
      const increment = () =>
        collections.rateLimits.findOneAndUpdate(
          { _id: id },
          { $inc: { count: 1 }, $setOnInsert: { expiresAt: endsAt } },
          { upsert: true, returnDocument: "after" },
        );
      let doc: Awaited<ReturnType<typeof increment>>;
      try {
        doc = await increment();
      } catch (error) {
        // Two first hits raced on the upsert; the loser's retry finds the document.
        if (!isDuplicateKeyError(error)) throw error;
        doc = await increment();
      }
      return decide(doc?.count ?? 1, rule, endsAt, now);
    },
  };
}

export function createMemoryRateLimiter(): RateLimiter {
  const counters = new Map<string, { count: number; endsAt: Date }>();
  return {
    async hit(key, rule, now) {
      const { index, endsAt } = windowBounds(rule, now);
      const id = `${key}|${rule.window}|${index}`;
      if (counters.size > 100_000) {
        for (const [k, v] of counters) if (v.endsAt <= now) counters.delete(k);
      }
      const entry = counters.get(id) ?? { count: 0, endsAt };
      entry.count += 1;
      counters.set(id, entry);
      return decide(entry.count, rule, endsAt, now);
    },
  };
}
