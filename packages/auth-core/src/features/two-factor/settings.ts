import type { AuthContext } from "../../context.ts";
import type { TwoFactorDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import type { SessionWithUser } from "../session/index.ts";
import { deleteAllSessionsOfUser, setCookieCache } from "../session/index.ts";
import { updateUser } from "../users/index.ts";
import { backupUsedOfUser, challengesOfUser, trustOfUser, userAttemptsOfUser } from "./rules.ts";
import { deleteRowsWithPrefixes, deleteTwoFactor, findTwoFactor, markTwoFactorVerified } from "./store.ts";
import { forgetTrustedDeviceCookie } from "./trusted-device.ts";

/**
 * Writes `twoFactorEnabled` and refreshes the caller's cookie cache (when on) to show it. Null when
 * the user is gone or an update hook refused (answered FAILED_TO_UPDATE_USER).
 */
async function setTwoFactorFlag(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  enabled: boolean,
): Promise<UserDoc | null> {
  const updated = await updateUser(auth, caller.user._id, { twoFactorEnabled: enabled });
  if (!updated) return null;
  setCookieCache(auth, jar, caller.session, updated);
  return updated;
}

/**
 * A first code from the new secret confirmed the enrollment: from now on every sign-in of the user
 * is gated. The document is marked first, the user second: a crash in between leaves two-factor
 * off (the next verify-totp finishes it), never a user gated by an unconfirmed secret.
 * A disable running meanwhile may have deleted the document before the flag went on: the document
 * is read again after the flag is written, and when it is gone the flag goes back off — so the
 * flag is never left on without a factor (disable writes it off again after its delete too).
 * Once on, every other session of the user ends (ASVS 7.4.3, docs/security.md "Enabling
 * two-factor"): a session someone else opened with the password alone must not outlive the factor
 * that now guards the account. The caller's session stays, its cookie cache already re-signed.
 */
export async function confirmEnrollment(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  doc: TwoFactorDoc,
): Promise<Outcome<UserDoc, "FAILED_TO_UPDATE_USER" | "TOTP_NOT_ENABLED">> {
  if (!doc.verified) await markTwoFactorVerified(auth.collections, doc._id, auth.now());
  if (caller.user.twoFactorEnabled) return granted(caller.user);
  const updated = await setTwoFactorFlag(auth, jar, caller, true);
  if (!updated) return refused("FAILED_TO_UPDATE_USER");
  if (!(await findTwoFactor(auth.collections, caller.user._id))) {
    if (!(await setTwoFactorFlag(auth, jar, caller, false))) return refused("FAILED_TO_UPDATE_USER");
    return refused("TOTP_NOT_ENABLED");
  }
  await deleteAllSessionsOfUser(auth.collections, caller.user._id, caller.session.token);
  return granted(updated);
}

/**
 * Turns two-factor off. The user's flag goes first: a crash afterwards leaves a stale document that
 * the next enable replaces — never a user gated by a factor that no longer exists. The flag is
 * written off whatever the caller's copy says, and again after the delete: a confirmation racing
 * this call may have written it on in between (it then finds no document and undoes it itself,
 * but only when its re-read comes after the delete — the second write covers the other order).
 * The owner's disable also clears the sign-in lock (lockout.ts), the trusted devices, pending
 * challenges and used-backup-code markers.
 */
export async function disableTwoFactor(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
): Promise<Outcome<void, "TWO_FACTOR_NOT_ENABLED" | "FAILED_TO_UPDATE_USER">> {
  const { user } = caller;
  const doc = await findTwoFactor(auth.collections, user._id);
  if (!doc && !user.twoFactorEnabled) return refused("TWO_FACTOR_NOT_ENABLED");
  if (!(await setTwoFactorFlag(auth, jar, caller, false))) return refused("FAILED_TO_UPDATE_USER");
  await deleteTwoFactor(auth.collections, user._id);
  if (!(await setTwoFactorFlag(auth, jar, caller, false))) return refused("FAILED_TO_UPDATE_USER");
  await deleteUserTwoFactorRows(auth, user._id);
  forgetTrustedDeviceCookie(auth, jar);
  return granted(undefined);
}

/** The user's trusted devices, pending challenges, used-backup-code markers and failure slots. */
async function deleteUserTwoFactorRows(auth: AuthContext, userId: ObjectId): Promise<void> {
  const user = userId.toHexString();
  await deleteRowsWithPrefixes(auth.collections, [
    trustOfUser(user),
    challengesOfUser(user),
    backupUsedOfUser(user),
    userAttemptsOfUser(user),
  ]);
}

/**
 * A password reset, a password change that ends the other sessions (features/password), or an
 * admin's set-user-password: the user's trusted devices and pending sign-in challenges go too — a device trusted, or a challenge
 * won, with the old password must not outlive it.
 */
export async function forgetSecondFactorSessions(auth: AuthContext, userId: ObjectId): Promise<void> {
  const user = userId.toHexString();
  await deleteRowsWithPrefixes(auth.collections, [trustOfUser(user), challengesOfUser(user)]);
}

/**
 * Removes everything two-factor keeps about a user: the document, trusted devices, used-backup-code
 * markers, pending challenges and attempt slots (docs/security.md). For user deletion
 * (delete-user, admin remove-user), after the user is gone. Used-TOTP-step rows expire on their own.
 */
export async function deleteUserTwoFactorData(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteTwoFactor(auth.collections, userId);
  await deleteUserTwoFactorRows(auth, userId);
}

/**
 * An unproven account's enrollment, when the mailbox's owner takes the account over
 * (features/passwordless sign-in, docs/security.md "Mailed sign-in links and codes"): whoever
 * enrolled it may be a stranger, whose factor would otherwise challenge, and lock out, the owner.
 * The flag goes first, as in disableTwoFactor; then the document, backup codes, trusted devices and
 * challenges. The user as now, or null when the user is gone or an update hook refused the flag
 * (nothing is removed then).
 */
export async function removeTwoFactorEnrollment(auth: AuthContext, user: UserDoc): Promise<UserDoc | null> {
  const updated = user.twoFactorEnabled
    ? await updateUser(auth, user._id, { twoFactorEnabled: false })
    : user;
  if (!updated) return null;
  await deleteUserTwoFactorData(auth, user._id);
  return updated;
}
