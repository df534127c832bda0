/**
 * Pure decisions of the two-factor feature: the names of its one-time rows, windows and formats.
 * Everything the feature keeps besides the `twoFactors` document lives in `verifications` under
 * these identifiers, so its unique index decides every race (a duplicate insert loses) and
 * `auth.cleanup()` removes what expired.
 */

/** The sign-in attempt waiting for its second factor; value: the challenge payload. */
export const challengeIdentifier = (challengeId: string) => `two-factor-challenge:${challengeId}`;
/** One row per code attempt on a challenge, numbered 1..attemptsPerChallenge. */
export const challengeAttemptPrefix = (challengeId: string) => `two-factor-attempt:${challengeId}:`;
/** One row per code attempt of a user in a lockout window, numbered 1..failuresPerUser. */
export const userAttemptPrefix = (userId: string, windowIndex: number) =>
  `two-factor-user-attempt:${userId}:${windowIndex}:`;
export const userAttemptsOfUser = (userId: string) => `two-factor-user-attempt:${userId}:`;
/** The emailed code of a challenge (bound to it, security-matrix E22); value: its MAC. */
export const otpIdentifier = (challengeId: string) => `two-factor-otp:${challengeId}`;
export const otpSendPrefix = (challengeId: string) => `two-factor-otp-send:${challengeId}:`;
/** A TOTP time step already used by the user (RFC 6238 §5.2: a code is accepted once). */
export const totpUsedIdentifier = (userId: string, step: number) => `two-factor-totp-used:${userId}:${step}`;
/** A backup code already used: its set and its position in the set. */
export const backupUsedIdentifier = (userId: string, batch: string, index: number) =>
  `two-factor-backup-used:${userId}:${batch}:${index}`;
export const backupUsedOfUser = (userId: string) => `two-factor-backup-used:${userId}:`;
/** A trusted device of the user; the cookie carries the same two ids, signed. */
export const trustIdentifier = (userId: string, trustId: string) => `two-factor-trust:${userId}:${trustId}`;
export const trustOfUser = (userId: string) => `two-factor-trust:${userId}:`;

/** Used backup codes stay refused as long as their set exists; removed with the set. */
export const NEVER_EXPIRES = new Date("9999-12-31T00:00:00.000Z");

/** Fixed windows of the per-user limit: index and end of the window `now` falls in. */
export function lockoutWindow(now: Date, windowSeconds: number): { index: number; endsAt: Date } {
  const index = Math.floor(now.getTime() / 1000 / windowSeconds);
  return { index, endsAt: new Date((index + 1) * windowSeconds * 1000) };
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

export type TwoFactorMethod = "totp" | "otp";

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

/** `<userId>.<trustId>` inside the signed trusted-device cookie; null when malformed. */
export function parseTrustValue(value: string): { userId: string; trustId: string } | null {
  const match = /^([0-9a-f]{24})\.([A-Za-z0-9]{32})$/.exec(value);
  return match ? { userId: match[1]!, trustId: match[2]! } : null;
}
