/**
 * Pure decisions of the per-account sign-in throttle (docs/security.md "Guessing one account's
 * password"): the delay schedule and the names of its rows in `verifications`.
 */

/** Failures answered without any delay: a user mistyping a few times never waits. */
const FREE_FAILURES = 5;
/** NIST SP 800-63B §5.2.2: at most 100 consecutive failed attempts on one account. */
export const MAX_CONSECUTIVE_FAILURES = 100;
/** The longest wait between two attempts, so the owner is never kept out for long by the delays. */
const MAX_DELAY_SECONDS = 300;

/**
 * Seconds to wait, after `failures` consecutive failures, before the next attempt is looked at:
 * none for the first 4; then 1 s after the 5th, doubling (2, 4, … 256 s) up to 5 minutes from the
 * 14th on. Reaching 100 takes an attacker about 7.3 hours.
 * @internal Exported for its unit test (rules.test.ts).
 */
export function delayAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** (failures - FREE_FAILURES));
}

export type AttemptPlan =
  /** Claim this slot (its row is the attempt's ticket), then check the password. */
  | { kind: "claim"; slot: number }
  /** Inside the delay: answer without checking the password (a guess here never counts). */
  | { kind: "wait"; until: Date }
  /** 100 consecutive failures: only a new password (reset) clears it. */
  | { kind: "locked" };

/**
 * What the next attempt may do, given the lane's latest claimed slot (its number is the count of
 * consecutive failures and attempts in flight; null when there is none).
 */
export function planAttempt(latest: { slot: number; at: Date } | null, now: Date): AttemptPlan {
  const failures = latest?.slot ?? 0;
  if (failures >= MAX_CONSECUTIVE_FAILURES) return { kind: "locked" };
  // Without a delay there is nothing to wait for: a concurrent attempt may have written its slot
  // after this one read the clock, and must not make it wait (it answered 429 with Retry-After 1).
  const delay = delayAfter(failures);
  if (latest && delay > 0) {
    const until = new Date(latest.at.getTime() + delay * 1000);
    if (now < until) return { kind: "wait", until };
  }
  return { kind: "claim", slot: failures + 1 };
}

/**
 * The rows of one account: `sign-in-attempt:<account>:`. The account is the user's id, or for an
 * address nobody has, `email:` and the address's SHA-256 — so an unknown address is throttled
 * exactly like a known one (no enumeration) without storing the address.
 */
export const attemptsOfAccount = (account: string) => `sign-in-attempt:${account}:`;

/**
 * One lane of an account: `any` for every client, or the id of a device that signed in as the user
 * before (known-device.ts). Slots `<lane prefix><n>`, numbered from 1.
 */
export const attemptLane = (account: string, lane: string) => `${attemptsOfAccount(account)}${lane}:`;

/** The lane of every client that is not a known device of the user. */
export const ANY_DEVICE = "any";

/** The highest slot number among the lane's rows, with when it was claimed; null when none. */
export function latestSlot(
  rows: { identifier: string; createdAt: Date }[],
  lanePrefix: string,
): { slot: number; at: Date } | null {
  let latest: { slot: number; at: Date } | null = null;
  for (const row of rows) {
    const slot = Number(row.identifier.slice(lanePrefix.length));
    if (Number.isInteger(slot) && slot > (latest?.slot ?? 0)) latest = { slot, at: row.createdAt };
  }
  return latest;
}
