import type { ObjectId } from "mongodb";
import type { AuthContext } from "../../context.ts";
import type { TwoFactorDoc, UserDoc } from "../../db/documents.ts";
import { AuthError } from "../../errors/auth-error.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { setCookieCache } from "../session/service.ts";
import type { SessionWithUser } from "../session/types.ts";
import { updateUser } from "../users/service.ts";
import { backupUsedOfUser, trustOfUser, userAttemptsOfUser } from "./rules.ts";
import { deleteUsedBackupMarkers } from "./service.ts";
import { deleteRowsWithPrefixes, deleteTwoFactor, findTwoFactor, markTwoFactorVerified } from "./store.ts";
import { forgetTrustedDevices } from "./trusted-device.ts";

/** Writes `twoFactorEnabled` and refreshes the caller's cookie cache (when on) to show it. */
async function setTwoFactorFlag(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  enabled: boolean,
): Promise<UserDoc> {
  const updated = await updateUser(auth, caller.user._id, { twoFactorEnabled: enabled });
  if (!updated) throw new AuthError("FAILED_TO_UPDATE_USER");
  setCookieCache(auth, jar, caller.session, updated);
  return updated;
}

/**
 * A first code from the new secret confirmed the enrollment: from now on every sign-in of the user
 * is gated. The document is marked first, the user second: a crash in between leaves two-factor
 * off (the next verify-totp finishes it), never a user gated by an unconfirmed secret.
 */
export async function confirmEnrollment(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  doc: TwoFactorDoc,
): Promise<UserDoc> {
  if (!doc.verified) await markTwoFactorVerified(auth.collections, doc._id, auth.now());
  if (caller.user.twoFactorEnabled) return caller.user;
  return setTwoFactorFlag(auth, jar, caller, true);
}

/**
 * Turns two-factor off. The user's flag goes first: a crash afterwards leaves a stale document that
 * the next enable replaces — never a user gated by a factor that no longer exists.
 */
export async function disableTwoFactor(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
): Promise<void> {
  const { user } = caller;
  const doc = await findTwoFactor(auth.collections, user._id);
  if (!doc && !user.twoFactorEnabled) throw new AuthError("TWO_FACTOR_NOT_ENABLED");
  if (user.twoFactorEnabled) await setTwoFactorFlag(auth, jar, caller, false);
  await deleteTwoFactor(auth.collections, user._id);
  await forgetTrustedDevices(auth, jar, user._id);
  await deleteUsedBackupMarkers(auth, user._id);
}

/**
 * Removes everything two-factor keeps about a user: the document, trusted devices, used-backup-code
 * markers and attempt slots (security-matrix D14). For user deletion (delete-user, admin
 * remove-user), after the user is gone. Challenges and used-TOTP-step rows expire on their own.
 */
export async function deleteUserTwoFactorData(auth: AuthContext, userId: ObjectId): Promise<void> {
  const user = userId.toHexString();
  await deleteTwoFactor(auth.collections, userId);
  await deleteRowsWithPrefixes(auth.collections, [
    trustOfUser(user),
    backupUsedOfUser(user),
    userAttemptsOfUser(user),
  ]);
}
