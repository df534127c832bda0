import type { AuthContext } from "../../context.ts";
import { sha256Base64Url } from "../../crypto/index.ts";
import type { ObjectId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { attemptLane, attemptsOfAccount, latestSlot, planAttempt } from "./rules.ts";
import { deleteRowsWithPrefix, findLaneRows, insertSlot } from "./store.ts";

/** A known user's failures are kept until a success or a new password (NIST: no window). */
const NEVER_EXPIRES = new Date("9999-12-31T00:00:00.000Z");
/** Rows for an address nobody has: reclaimed by auth.cleanup() 30 days after they were written. */
const UNKNOWN_ADDRESS_ROWS_MS = 30 * 86_400_000;

export interface SignInSubject {
  /** The user the address belongs to, or null when it belongs to nobody. */
  userId: ObjectId | null;
  email: string;
}

const accountKey = (subject: SignInSubject) =>
  subject.userId ? subject.userId.toHexString() : `email:${sha256Base64Url(subject.email)}`;

/**
 * Per-account throttle of password sign-in (docs/security.md "Guessing one account's password").
 * Every attempt claims the next numbered slot of its lane BEFORE the password is checked, and a
 * success clears the account's slots, so the slots count consecutive failures across every
 * address and every instance — and a burst of parallel guesses gets no more checks than slots
 * it can claim (FerretDB v1 has no exact `$inc`; slots are unique rows).
 * - The first 5 failures cost nothing; then each next attempt waits 1 s, 2 s, 4 s, … up to 5 min
 *   after the previous one (rules.ts): 429 ACCOUNT_TEMPORARILY_LOCKED with Retry-After, without
 *   looking at the password, so a guess inside the delay is not a guess.
 * - After 100 consecutive failures (NIST SP 800-63B §5.2.2): 403 SIGN_IN_LOCKED until the password
 *   is reset (any new password clears the slots: users/service.ts).
 * - A device that signed in as the user before has a lane of its own (known-device.ts): an
 *   attacker's guesses from elsewhere neither delay nor lock the owner there.
 * An address nobody has gets the same answers, in the same number of database commands.
 */
export async function admitSignInAttempt(
  ctx: { auth: AuthContext; setHeader(name: string, value: string): void },
  subject: SignInSubject,
  knownDeviceId: string | null,
): Promise<void> {
  const { auth } = ctx;
  const now = auth.now();
  const lane = attemptLane(accountKey(subject), knownDeviceId ?? "any");
  const expiresAt = subject.userId ? NEVER_EXPIRES : new Date(now.getTime() + UNKNOWN_ADDRESS_ROWS_MS);
  let latest = latestSlot(await findLaneRows(auth.collections, lane), lane);
  for (;;) {
    const plan = planAttempt(latest, now);
    if (plan.kind === "locked") throw new AuthError("SIGN_IN_LOCKED");
    if (plan.kind === "wait") throw tooSoon(ctx, plan.until, now);
    if (await insertSlot(auth.collections, `${lane}${plan.slot}`, expiresAt, now)) return;
    // A parallel attempt took this slot just now: within the free failures the next one is
    // claimable at once; past them the delay after that attempt applies.
    latest = { slot: plan.slot, at: now };
  }
}

function tooSoon(ctx: { setHeader(name: string, value: string): void }, until: Date, now: Date): AuthError {
  const seconds = String(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)));
  // RFC 9110 Retry-After, and X-Retry-After as the rate limiter and two-factor lock answer.
  ctx.setHeader("Retry-After", seconds);
  ctx.setHeader("X-Retry-After", seconds);
  return new AuthError("ACCOUNT_TEMPORARILY_LOCKED");
}

/** A success or a new password clears every lane of the user (NIST: the count restarts). */
export async function clearSignInFailures(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteRowsWithPrefix(auth.collections, attemptsOfAccount(userId.toHexString()));
}
