/**
 * Pure decisions of the two-factor feature: the names of its one-time rows, windows and formats.
 * Everything the feature keeps besides the `twoFactors` document lives in `verifications` under
 * these identifiers, so its unique index decides every race (a duplicate insert loses) and
 * `auth.cleanup()` removes what expired.
 */

/**
 * The sign-in attempt waiting for its second factor; value: the challenge payload. Named under its
 * user so a password reset can drop every pending challenge of the user in one delete.
 */
export const challengeIdentifier = (userId: string, challengeId: string) =>
  `two-factor-challenge:${userId}:${challengeId}`;
export const challengesOfUser = (userId: string) => `two-factor-challenge:${userId}:`;
/** One row per code attempt on a challenge, numbered 1..attemptsPerChallenge. */
export const challengeAttemptPrefix = (challengeId: string) => `two-factor-attempt:${challengeId}:`;
/**
 * One row per consecutive code attempt of a user at sign-in, numbered 1..MAX_CONSECUTIVE_FAILURES;
 * no window: only a success or the owner (disable, user deletion) clears them (lockout.ts).
 */
export const userAttemptsOfUser = (userId: string) => `two-factor-user-attempt:${userId}:`;
/** One row per consecutive code attempt on a session (enrollment confirmation), like a challenge's. */
export const sessionAttemptPrefix = (sessionId: string) => `two-factor-session-attempt:${sessionId}:`;
/** The emailed code of a challenge (bound to it, docs/security.md); value: its MAC. */
export const otpIdentifier = (challengeId: string) => `two-factor-otp:${challengeId}`;
export const otpSendPrefix = (challengeId: string) => `two-factor-otp-send:${challengeId}:`;
/** A TOTP time step already used by the user (RFC 6238 §5.2: a code is accepted once). */
export const totpUsedIdentifier = (userId: string, step: number) => `two-factor-totp-used:${userId}:${step}`;
/** A backup code already used: its set and its position in the set. */
export const backupUsedIdentifier = (userId: string, batch: string, index: number) =>
  `two-factor-backup-used:${userId}:${batch}:${index}`;
export const backupUsedOfUser = (userId: string) => `two-factor-backup-used:${userId}:`;
export const backupUsedOfBatch = (userId: string, batch: string) =>
  `two-factor-backup-used:${userId}:${batch}:`;
/** A trusted device of the user; the cookie carries the same two ids, signed. */
export const trustIdentifier = (userId: string, trustId: string) => `two-factor-trust:${userId}:${trustId}`;
export const trustOfUser = (userId: string) => `two-factor-trust:${userId}:`;

/** Used backup codes stay refused as long as their set exists; removed with the set. */
export const NEVER_EXPIRES = new Date("9999-12-31T00:00:00.000Z");

/**
 * NIST SP 800-63B §5.2.2 (docs/security.md): at most 100 consecutive failed attempts on one
 * account; then the one-time-password paths stay locked until a success (a backup code) or the owner.
 */
export const MAX_CONSECUTIVE_FAILURES = 100;

/**
 * The lock after the `step`-th run of `perStep` consecutive failures (step 1 = after the first
 * 10): the first lasts `firstLock` seconds, each next one twice as long (15 min, 30 min, 1 h, …).
 * @internal Exported for its unit test (rules.test.ts).
 */
export function lockSeconds(step: number, firstLock: number): number {
  return firstLock * 2 ** (step - 1);
}

export type FailureSlotPlan =
  /** `nextLock`: seconds of the lock once this run is full; null when the hard lock follows. */
  | { kind: "claim"; slots: number[]; nextLock: number | null }
  | { kind: "locked"; until: Date }
  | { kind: "hard-locked" };

/**
 * Which attempt slots a caller may try to claim, given the taken ones (number → when claimed):
 * the free ones of the current run of `perStep`, once the lock that ended the previous run is over.
 * A caller never claims past a run's end, so parallel callers cannot test more than `perStep` codes
 * between two locks.
 */
export function planFailureSlots(
  taken: Map<number, Date>,
  now: Date,
  config: { perStep: number; firstLock: number; max: number },
): FailureSlotPlan {
  let first = 1;
  while (taken.has(first)) first++;
  if (first > config.max) return { kind: "hard-locked" };
  const step = Math.floor((first - 1) / config.perStep);
  const boundary = taken.get(step * config.perStep);
  if (step >= 1 && boundary) {
    const until = new Date(boundary.getTime() + lockSeconds(step, config.firstLock) * 1000);
    if (now < until) return { kind: "locked", until };
  }
  const slots: number[] = [];
  const end = Math.min((step + 1) * config.perStep, config.max);
  for (let slot = first; slot <= end; slot++) if (!taken.has(slot)) slots.push(slot);
  const nextLock = end >= config.max ? null : lockSeconds(step + 1, config.firstLock);
  return { kind: "claim", slots, nextLock };
}

/** A used step must stay refused while it can still be accepted: until now + window steps pass it. */
export function totpReplayExpiry(step: number, window: number, period: number): Date {
  return new Date((step + window + 1) * period * 1000);
}

export interface ChallengePayload {
  userId: string;
  /** rememberMe false at sign-in: the session minted at the end is short-lived too. */
  dontRemember: boolean;
}

export function serializeChallenge(payload: ChallengePayload): string {
  return JSON.stringify({ userId: payload.userId, dontRemember: payload.dontRemember });
}

/** Null for anything that is not a payload this feature wrote. */
export function parseChallenge(value: string): ChallengePayload | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null) return null;
    const { userId, dontRemember } = parsed as Record<string, unknown>;
    if (typeof userId !== "string" || typeof dontRemember !== "boolean") return null;
    return { userId, dontRemember };
  } catch {
    return null;
  }
}

import type { TwoFactorMethod } from "../../contracts/two-factor.ts";

export type { TwoFactorMethod } from "../../contracts/two-factor.ts";

/** What the sign-in answer offers (`twoFactorMethods`); backup codes are always accepted besides. */
export function availableMethods(otpEnabled: boolean): TwoFactorMethod[] {
  return otpEnabled ? ["totp", "otp"] : ["totp"];
}

/** Backup codes are shown as `xxxxx-xxxxx`; typed back with or without the dash, any case, spaces. */
export function normalizeBackupCode(input: string): string {
  return input.replace(/[\s-]/g, "").toLowerCase();
}

export function formatBackupCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** `<userId>.<challengeId>` inside the signed challenge cookie; null when malformed. */
export function parseChallengeReference(value: string): { userId: string; challengeId: string } | null {
  const parsed = parseTrustValue(value);
  return parsed ? { userId: parsed.userId, challengeId: parsed.trustId } : null;
}

/** `<userId>.<trustId>` inside the signed trusted-device cookie; null when malformed. */
export function parseTrustValue(value: string): { userId: string; trustId: string } | null {
  const match = /^([0-9a-f]{24})\.([A-Za-z0-9]{32})$/.exec(value);
  return match ? { userId: match[1]!, trustId: match[2]! } : null;
}
