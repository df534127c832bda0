import { sha256Base64Url } from "../../crypto/index.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";

/**
 * Pure API-key decisions. No I/O; the clock is passed in.
 */

/**
 * The stored form of a key: SHA-256, base64url. Keys are looked up by this hash, never compared in
 * clear, so a lookup's timing can only depend on the hash of the attacker's own input — which says
 * nothing about a real key.
 */
export function hashApiKey(key: string): string {
  return sha256Base64Url(key);
}

/** The clear, non-secret leading characters kept for display (null when none are kept). */
export function keyStart(key: string, length: number): string | null {
  return length > 0 ? key.slice(0, length) : null;
}

/** Fields only server code (auth.api) may set: limits, permissions, another user's id (matrix K1/K2). */
const SERVER_ONLY_FIELDS = [
  "userId",
  "remaining",
  "refillAmount",
  "refillInterval",
  "rateLimitEnabled",
  "rateLimitTimeWindow",
  "rateLimitMax",
  "permissions",
] as const;

/** The server-only fields a body sets (present, even as null). */
export function findServerOnlyFields(body: Record<string, unknown>): string[] {
  return SERVER_ONLY_FIELDS.filter((field) => body[field] !== undefined);
}

export interface ExpiryBounds {
  minExpiresIn: number;
  maxExpiresIn: number;
}

/** What create and update answer for an `expiresIn` outside the configured bounds. */
export type ExpiryRefusal = "API_KEY_EXPIRES_IN_TOO_SMALL" | "API_KEY_EXPIRES_IN_TOO_LARGE";

/** Null when `seconds` lies within the configured bounds (inclusive). */
export function checkExpiresIn(seconds: number, bounds: ExpiryBounds): ExpiryRefusal | null {
  if (seconds < bounds.minExpiresIn) return "API_KEY_EXPIRES_IN_TOO_SMALL";
  if (seconds > bounds.maxExpiresIn) return "API_KEY_EXPIRES_IN_TOO_LARGE";
  return null;
}

/** Disabled first, then expired: the order of the list and of Better Auth's verification. */
export function checkKeyState(
  key: { enabled: boolean; expiresAt: Date | null },
  now: Date,
): ErrorCode | null {
  if (!key.enabled) return "API_KEY_DISABLED";
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return "API_KEY_EXPIRED";
  return null;
}

/** True when every required action of every resource is granted. An empty requirement passes. */
export function hasPermissions(
  granted: Record<string, string[]> | null,
  required: Record<string, string[]>,
): boolean {
  return Object.entries(required).every(([resource, actions]) => {
    const allowed = granted !== null && Object.hasOwn(granted, resource) ? granted[resource]! : [];
    return actions.every((action) => allowed.includes(action));
  });
}

export interface UsageLimits {
  remaining: number | null;
  refillAmount: number | null;
  refillInterval: number | null;
  usageResetAt: Date;
}

/** The usage period a use falls in: its claim namespace, its budget and when it ends. */
export interface UsagePeriod {
  /** `<keyId>|<budget start ms>|<period>|` — the `_id` prefix of this period's use claims. */
  claimPrefix: string;
  budget: number;
  endsAt: Date | null;
}

/**
 * Usage limit with refill, in fixed periods: the budget starts at `usageResetAt` with `remaining`
 * uses; with a refill, every `refillInterval` ms after that starts a new period of `refillAmount`
 * uses (the count is reset to the amount, not added to — Better Auth's refill). Fixed periods,
 * rather than a refill stamped by the first use after the interval, make the period a pure function
 * of the clock, so concurrent uses agree on it without a shared write. Null when unlimited.
 */
export function currentUsagePeriod(keyId: string, limits: UsageLimits, now: Date): UsagePeriod | null {
  if (limits.remaining === null) return null;
  const start = limits.usageResetAt.getTime();
  const base = `${keyId}|${start}|`;
  const interval = limits.refillInterval;
  if (interval === null || limits.refillAmount === null) {
    return { claimPrefix: `${base}0|`, budget: limits.remaining, endsAt: null };
  }
  const period = Math.max(0, Math.floor((now.getTime() - start) / interval));
  return {
    claimPrefix: `${base}${period}|`,
    budget: period === 0 ? limits.remaining : limits.refillAmount,
    endsAt: new Date(start + (period + 1) * interval),
  };
}

/** Slot numbers are zero-padded so that `_id` order is numeric order. */
export const SLOT_DIGITS = 12;

export function usageClaimId(prefix: string, slot: number): string {
  return prefix + String(slot).padStart(SLOT_DIGITS, "0");
}
