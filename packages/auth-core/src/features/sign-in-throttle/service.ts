import type { AuthContext } from "../../context.ts";
import { sha256Base64Url } from "../../crypto/index.ts";
import type { ObjectId } from "../../db/ids.ts";
import { type Granted, granted, type Refused, refused } from "../../errors/refusal.ts";
import {
  ANY_DEVICE,
  attemptLane,
  attemptsOfAccount,
  latestSlot,
  MAX_CONSECUTIVE_FAILURES,
  planAttempt,
} from "./rules.ts";
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

/** The lane an attempt of `subject` from this device counts in, and how long its rows are kept. */
function laneOf(subject: SignInSubject, knownDeviceId: string | null, now: Date) {
  const lane = attemptLane(accountKey(subject), knownDeviceId ?? ANY_DEVICE);
  const expiresAt = subject.userId ? NEVER_EXPIRES : new Date(now.getTime() + UNKNOWN_ADDRESS_ROWS_MS);
  return { lane, expiresAt };
}

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
 * Answers a refusal value; the sign-in endpoint turns it into the error (and the headers).
 */
export async function admitSignInAttempt(
  auth: AuthContext,
  subject: SignInSubject,
  knownDeviceId: string | null,
): Promise<Granted<void> | SignInRefused> {
  const now = auth.now();
  const { lane, expiresAt } = laneOf(subject, knownDeviceId, now);
  let latest = latestSlot(await findLaneRows(auth.collections, lane), lane);
  for (;;) {
    const plan = planAttempt(latest, now);
    if (plan.kind === "locked") return refused("SIGN_IN_LOCKED");
    if (plan.kind === "wait") return tooSoon(plan.until, now);
    if (await insertSlot(auth.collections, `${lane}${plan.slot}`, expiresAt, now)) return granted(undefined);
    // A parallel attempt took this slot just now: within the free failures the next one is
    // claimable at once; past them the delay after that attempt applies.
    latest = { slot: plan.slot, at: now };
  }
}

/**
 * What checkSignInThrottle admitted: where recordSignInFailure writes if the answer proves wrong,
 * and whether the account has failures a right answer must clear.
 */
export interface ThrottleCheck {
  lane: string;
  slot: number;
  expiresAt: Date;
  hasFailures: boolean;
}

/**
 * The throttle for an answer whose tries are already counted exactly by the caller before it is
 * compared (a mailed code: its numbered try rows, features/passwordless), so the throttle is written
 * only after a wrong answer — a right one, nearly every sign-in, writes nothing here unless the
 * account has failures to clear. The delays and the lock are those of admitSignInAttempt, read from
 * the same lanes: an attempt inside a delay or past the lock is refused before anything is looked
 * at. What differs is a burst: attempts admitted by the same read are compared together, at most
 * the caller's tries (3 per mailed code, and each code costs a mail: docs/security.md "Mail
 * flooding"); each wrong one is still recorded, so the delays grow and the lock comes as for
 * passwords. Reads every lane of the account (one range), so a right answer knows whether any
 * lane needs clearing.
 */
export async function checkSignInThrottle(
  auth: AuthContext,
  subject: SignInSubject,
  knownDeviceId: string | null,
): Promise<Granted<ThrottleCheck> | SignInRefused> {
  const now = auth.now();
  const { lane, expiresAt } = laneOf(subject, knownDeviceId, now);
  const account = attemptsOfAccount(accountKey(subject));
  const rows = await findLaneRows(auth.collections, account);
  const laneRows = rows.filter((row) => row.identifier.startsWith(lane));
  const plan = planAttempt(latestSlot(laneRows, lane), now);
  if (plan.kind === "locked") return refused("SIGN_IN_LOCKED");
  if (plan.kind === "wait") return tooSoon(plan.until, now);
  return granted({ lane, slot: plan.slot, expiresAt, hasFailures: rows.length > 0 });
}

/**
 * A wrong answer checkSignInThrottle admitted: one failure in its lane, in the slot the check
 * planned, or the next free one when parallel failures took it (each is counted).
 */
export async function recordSignInFailure(auth: AuthContext, check: ThrottleCheck): Promise<void> {
  const now = auth.now();
  for (let slot = check.slot; slot <= MAX_CONSECUTIVE_FAILURES; slot++)
    if (await insertSlot(auth.collections, `${check.lane}${slot}`, check.expiresAt, now)) return;
}

/**
 * A refused attempt: locked until a new password, or too soon after the previous one — then with
 * the whole seconds to wait, which the endpoint answers as Retry-After.
 */
export type SignInRefused =
  | Refused<"SIGN_IN_LOCKED">
  | (Refused<"ACCOUNT_TEMPORARILY_LOCKED"> & { retryAfterSeconds: number });

function tooSoon(until: Date, now: Date): SignInRefused {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return { ...refused("ACCOUNT_TEMPORARILY_LOCKED"), retryAfterSeconds };
}

/** A success or a new password clears every lane of the user (NIST: the count restarts). */
export async function clearSignInFailures(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteRowsWithPrefix(auth.collections, attemptsOfAccount(userId.toHexString()));
}

/**
 * A mailed one-time link used successfully (an email verification) proves the mailbox: the `any`
 * lane — where a stranger who knows the address makes every new device of the owner wait — starts
 * again (docs/decisions/0007-a-mailed-link-ends-the-strangers-delays.md "A mailed link ends the stranger's delays"). Known-device lanes are the
 * owner's own and stay as they are. A new password clears every lane anyway (clearSignInFailures).
 */
export async function clearNewDeviceFailures(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteRowsWithPrefix(auth.collections, attemptLane(userId.toHexString(), ANY_DEVICE));
}
