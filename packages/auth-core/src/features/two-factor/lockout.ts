import type { AuthContext } from "../../context.ts";
import type { ObjectId } from "../../db/ids.ts";
import { MAX_CONSECUTIVE_FAILURES, NEVER_EXPIRES, planFailureSlots, userAttemptsOfUser } from "./rules.ts";
import { deleteRowsWithPrefix, findRowsWithPrefix, insertRow } from "./store.ts";

/**
 * The per-user lock of the sign-in second factor (docs/security.md). Every code attempt at
 * sign-in claims a numbered slot before the code is looked at; a success clears them, so the slots
 * count CONSECUTIVE failures, across any time: no window resets them.
 * - After each `failuresPerUser` (10) failures the user is locked, first for `lockoutWindow`
 *   (15 min), then twice as long at each next 10 (30 min, 1 h, …) — guessing slows down instead of
 *   resuming every 15 minutes.
 * - After 100 (NIST SP 800-63B §5.2.2) the TOTP and emailed-code paths stay locked until a success
 *   by backup code, or the owner clears it (disable, which removes the factor) or the user goes.
 * Keyed on the user, not on user + client address: a per-address key would let many addresses
 * guess without bound (NIST limits per account), and behind a misconfigured proxy the address is
 * not the client's. The owner is not locked out by it (L5): backup codes are checked whatever the
 * lock (limited per challenge, and each challenge needs the password), and a trusted device skips
 * the challenge altogether.
 * Slots are unique rows, so parallel attempts never exceed a run (FerretDB v1: no exact $inc).
 */
export type UserAttemptAdmission = { admitted: true } | { admitted: false; until: Date | null };

export async function admitUserAttempt(auth: AuthContext, userId: ObjectId): Promise<UserAttemptAdmission> {
  const config = auth.options.twoFactor;
  const now = auth.now();
  const prefix = userAttemptsOfUser(userId.toHexString());
  const rows = await findRowsWithPrefix(auth.collections, prefix, MAX_CONSECUTIVE_FAILURES);
  const taken = new Map<number, Date>();
  for (const row of rows) taken.set(Number(row.identifier.slice(prefix.length)), row.createdAt);
  const plan = planFailureSlots(taken, now, {
    perStep: config.failuresPerUser,
    firstLock: config.lockoutWindow,
    max: MAX_CONSECUTIVE_FAILURES,
  });
  if (plan.kind === "hard-locked") return { admitted: false, until: null };
  if (plan.kind === "locked") return { admitted: false, until: plan.until };
  for (const slot of plan.slots) {
    if (await insertRow(auth.collections, `${prefix}${slot}`, "", NEVER_EXPIRES, now))
      return { admitted: true };
  }
  // Parallel attempts filled the run: its lock starts about now.
  if (plan.nextLock === null) return { admitted: false, until: null };
  return { admitted: false, until: new Date(now.getTime() + plan.nextLock * 1000) };
}

/** A success (or the owner) clears the user's consecutive failures. */
export async function resetUserAttempts(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteRowsWithPrefix(auth.collections, userAttemptsOfUser(userId.toHexString()));
}
