import type { AuthContext } from "../../context.ts";
import type { UserDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { findUserByEmail } from "../users/index.ts";
import { moveUserEmailMailingVerification, sendChangeEmailLink } from "../verification/index.ts";

/**
 * POST /change-email. Returns the user as stored afterwards
 * (changed only on the direct path), so the caller can refresh its cookie cache.
 * - Verified address: nothing changes now. A change-email link goes to the CURRENT address (which is
 *   also the notice to the old mailbox, docs/security.md); following it forwards a link to the new
 *   address, whose use moves the address, verified (`user.changeEmail.verifyNewEmailFirst`, the
 *   default), or moves it at once, unverified (the option off).
 * - Unverified address: the new mailbox gets a verification link and nothing moves until it is used
 *   (the default: an unverified account must not hold an address it has not proven, docs/decisions/
 *   "An address moves only once it is proven"); with the option off the address moves at once, stays
 *   unverified (Better Auth's behaviour, issue #136).
 */
export async function requestEmailChange(
  auth: AuthContext,
  user: UserDoc,
  newEmail: string,
  callbackURL: string | undefined,
): Promise<Outcome<UserDoc, "EMAIL_IS_THE_SAME" | "EMAIL_CAN_NOT_BE_UPDATED">> {
  if (newEmail === user.email) return refused("EMAIL_IS_THE_SAME");
  // docs/decisions/ requires this message for an address owned by someone else; the signed-in caller can
  // learn that an address exists, which docs/decisions/ accepts (docs/security.md: nothing is merged).
  if (await findUserByEmail(auth.collections, newEmail)) return refused("EMAIL_CAN_NOT_BE_UPDATED");
  const { verifyNewEmailFirst } = auth.options.user.changeEmail;
  if (user.emailVerified) {
    await sendChangeEmailLink(auth, user, newEmail, "change-email-confirmation", callbackURL);
    return granted(user);
  }
  if (verifyNewEmailFirst) {
    await sendChangeEmailLink(auth, user, newEmail, "change-email-verification", callbackURL);
    return granted(user);
  }
  // The new address's verification mail is stored before the move (docs/architecture.md "Mail").
  const moved = await moveUserEmailMailingVerification(auth, user, newEmail, callbackURL);
  // "taken": another user got the address since the check above (the unique index decided);
  // "stale": a concurrent change of this user won; "refused": a user update hook said no.
  if (!moved.ok) return refused("EMAIL_CAN_NOT_BE_UPDATED");
  return granted(moved.user);
}
