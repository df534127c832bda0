import type { AuthContext } from "../../context.ts";
import { generateRandomString, LOWER_ALPHANUMERIC } from "../../crypto/index.ts";
import type { UserDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { completeJournaledDeletion } from "../events/index.ts";
import { apiLink, dispatchMail, toMailUser } from "../mail-dispatch.ts";
import {
  forgetPendingDeletion,
  listPendingDeletions,
  recordPendingDeletion,
} from "../pending-deletions/index.ts";
import type { SessionWithUser } from "../session/index.ts";
import { deleteAllSessionsOfUser, readSession } from "../session/index.ts";
import { userDeletedEvent } from "../users/index.ts";
import { consumeVerification, createVerification } from "../verification/index.ts";
import {
  leaveOrganizations,
  readOrganizationRelease,
  releaseOwnerships,
  sweepUserMemberships,
} from "./organizations.ts";
import { deleteAccountIdentifier, type OrganizationRelease } from "./rules.ts";
import { deleteUserAccounts, deleteUserDoc, deleteUserDocAndClaim, deleteUserTokens } from "./store.ts";

/**
 * The caller of POST /delete-user, read from the database (never the cookie cache: a revoked
 * session must not delete anything) and WITHOUT the sliding refresh. The refresh moves
 * `updatedAt` to now, and freshness is measured from `updatedAt` (docs/decisions/ "fresh for 1 day
 * after its last update"): a refresh before the check would make every session fresh whenever
 * updateAge ≤ freshAge — the defaults. Null when signed out.
 */
export async function readCallerForDeletion(
  auth: AuthContext,
  jar: CookieJar,
): Promise<SessionWithUser | null> {
  return await readSession(auth, jar, { useCookieCache: false, disableRefresh: true });
}

/**
 * Mails a delete-account link (docs/decisions/: token of 32 chars [0-9a-z], 86400 s, stored as a
 * row whose value is the user id) with the callback URL (already checked as trusted). The mail's
 * row is queued before the token is stored (features/mail-outbox `linkStored`): a crash between the
 * two leaves a mail whose link answers INVALID_TOKEN, never a token without its mail (issue 34).
 * A failure to store the token is UNABLE_TO_CREATE_VERIFICATION, and its mail is not sent.
 */
export async function mailDeleteAccountLink(
  auth: AuthContext,
  user: UserDoc,
  callbackURL: string | undefined,
): Promise<Outcome<void, "UNABLE_TO_CREATE_VERIFICATION">> {
  const token = generateRandomString(32, LOWER_ALPHANUMERIC);
  const lifetime = auth.options.user.deleteUser.deleteTokenExpiresIn;
  const expiresAt = new Date(auth.now().getTime() + lifetime * 1000);
  // The token's write fails inside the mail's dispatch (which then drops the mail): remembered
  // here, so that its failure, and only its, is the refusal below.
  let tokenFailed = false;
  const storeToken = async () => {
    const now = auth.now();
    const expiry = new Date(now.getTime() + lifetime * 1000);
    await createVerification(
      auth.collections,
      deleteAccountIdentifier(token),
      user._id.toHexString(),
      expiry,
      now,
    ).catch((error: unknown) => {
      tokenFailed = true;
      throw error;
    });
  };
  const url = apiLink(auth, "/delete-user/callback", { token, callbackURL: callbackURL ?? "/" });
  const hook = auth.options.mail?.sendDeleteAccountVerification;
  try {
    await dispatchMail(
      auth,
      "delete-account",
      user,
      { url, expiresInHours: Math.round((lifetime / 3600) * 100) / 100 },
      hook && (() => hook({ user: toMailUser(user), url, token })),
      { queue: { expiresAt, userId: user._id, linkStored: storeToken } },
    );
  } catch (error) {
    if (!tokenFailed) throw error;
    auth.options.logger.error("deletion: the delete-account token could not be stored", error);
    return refused("UNABLE_TO_CREATE_VERIFICATION");
  }
  return granted(undefined);
}

/** Consumes a mailed token of this user (atomic, single use). False when invalid for them. */
export async function consumeDeleteAccountToken(
  auth: AuthContext,
  user: UserDoc,
  token: string,
): Promise<boolean> {
  const identifier = deleteAccountIdentifier(token);
  return (
    (await consumeVerification(auth.collections, identifier, auth.now(), user._id.toHexString())) !== null
  );
}

/**
 * Why a deletion did not happen: the only owner of an organization with other members (checked
 * before anything is written, and again by the guards while writing), the user delete hook's veto,
 * or a concurrent deletion of the same user that removed the row first.
 */
type DeleteUserRefusal = "SOLE_OWNER_CANNOT_BE_DELETED" | "DELETE_USER_REFUSED" | "USER_NOT_FOUND";

export type DeleteUserResult = Outcome<void, DeleteUserRefusal>;

/**
 * Deletes the user and everything that lets anyone act as them. First the organization check of
 * docs/security.md (organizations.ts): the only owner of an organization with other members is
 * refused with SOLE_OWNER_CANNOT_BE_DELETED before the hook runs and before anything is written.
 * No transactions (FerretDB v1), so the writes are ordered for a crash at any point:
 * 1. the creator role is dropped where another owner remains (guarded; a lost guard puts the roles
 *    back and refuses) — a crash here leaves a whole user who merely is no longer an owner there;
 * 2. sessions — the user is signed out everywhere, and the impersonation sessions they started as
 *    an admin end too (they carry the impersonated user's id, which a delete by userId misses); a
 *    crash from here until step 4 leaves a signed-out user who can sign in and retry (the retry's
 *    plan sees what is left);
 * 3. organizations: those they are alone in, with all their rows; then their member rows, team
 *    memberships and pending invitations elsewhere — before the user row, because these rows are
 *    seen by other members (member lists, seat counts, invitation links) and nothing sweeps them
 *    (a membership promoted to sole owner while this ran stops the deletion here, user row intact);
 * 4. the user — its deleteOne is the one exact arbiter between concurrent deletions of the same
 *    user (FerretDB v1 serialises nothing else): only the call whose delete removed the row goes on
 *    and runs the after-hook; the others are refused USER_NOT_FOUND (no second after-hook). Each of
 *    them did ask the before-hook — its veto must come before anything is written, and who wins is
 *    known only here. Every caller answers the refusal's code as is (admin remove-user too). From
 *    here every path treats the user as gone at once: sessions and sign-in resolve the user row
 *    first, and the email is free again; then any member row or team membership a racing
 *    add-member or accept inserted after step 3 read them (add-member reads the user again after its
 *    insert, so one landing after this sweep takes itself back);
 * 5. accounts, 6. pending tokens, then the other features' data (`auth.userDataRemovers`, listed
 *    by create-auth.ts): 7. second-factor secrets and trusted devices, sign-in failures, 8. API keys (a key
 *    of a deleted user already verifies as invalid: verification resolves its owner). Step 4 is
 *    preceded by a journal entry (features/pending-deletions) removed after step 8 and the after-hook: a crash from
 *    step 4 on leaves rows nothing reaches (no user to resolve to) and the entry, and
 *    `auth.cleanup()` finishes the deletion (finishInterruptedUserDeletions).
 * A session minted by a sign-in racing step 2 dies with the user row (it resolves to no user); an
 * impersonation session the admin starts racing step 2 would not (it resolves to the impersonated
 * user) — closing that needs readSession to check the impersonator (features/session).
 * `release` lets a caller that already checked the organizations (before spending a token) pass
 * its plan on; it is read here otherwise.
 */
export async function deleteUserAndData(
  auth: AuthContext,
  user: UserDoc,
  release?: OrganizationRelease,
): Promise<DeleteUserResult> {
  const organizations = release ?? (await readOrganizationRelease(auth, user));
  // Refused before anything is written (nothing deleted, no mail sent, no token spent).
  if (organizations.blockedBy.length > 0) return refused("SOLE_OWNER_CANNOT_BE_DELETED");
  const hooks = auth.options.hooks?.user?.delete;
  if ((await hooks?.before?.(user)) === false) return refused("DELETE_USER_REFUSED");
  if (!(await releaseOwnerships(auth, organizations.demote))) return refused("SOLE_OWNER_CANNOT_BE_DELETED");
  await deleteAllSessionsOfUser(auth.collections, user._id);
  if (!(await leaveOrganizations(auth, user._id, organizations)))
    return refused("SOLE_OWNER_CANNOT_BE_DELETED");
  // The deletion's event rides in its journal entry: stored when it completes (features/events).
  const deleted = userDeletedEvent(user._id, auth.now());
  const entry = await recordPendingDeletion(auth.collections, "user", user._id, auth.now(), user, [deleted]);
  if (!(await deleteUserDoc(auth, user))) {
    await forgetPendingDeletion(auth.collections, entry);
    return refused("USER_NOT_FOUND");
  }
  await deleteRowsOfDeletedUser(auth, user._id);
  await hooks?.after?.(user);
  completeJournaledDeletion(auth.collections, entry);
  return granted(undefined);
}

/** Steps 5–8 (and the sweep after step 4); each can run again (a finish after a crash). */
async function deleteRowsOfDeletedUser(auth: AuthContext, userId: UserDoc["_id"]): Promise<void> {
  await sweepUserMemberships(auth, userId);
  await deleteUserAccounts(auth.collections, userId);
  await deleteUserTokens(auth.collections, userId);
  // The other features' data, each removed by its own feature, in the order create-auth.ts lists them.
  for (const removeUserData of auth.userDataRemovers) await removeUserData(auth, userId);
}

/**
 * For `auth.cleanup()`: finishes the user deletions a crash cut short after their journal entry.
 * Every check passed before the entry was written, so the deletion goes forward: the user row if it
 * is still there (its address released), sessions a sign-in racing the deletion may have minted,
 * then steps 5–8, and the delete after-hook — which may thus run twice when the crash came between
 * the hook and the entry's removal (at least once, never zero times). A deletion still in flight
 * meets the same idempotent deletes. Answers how many were finished.
 */
export async function finishInterruptedUserDeletions(auth: AuthContext): Promise<number> {
  const entries = await listPendingDeletions(auth.collections, "user");
  for (const entry of entries) {
    const user = entry.user;
    if (user) await deleteUserDocAndClaim(auth, user);
    await deleteAllSessionsOfUser(auth.collections, entry.targetId);
    await deleteRowsOfDeletedUser(auth, entry.targetId);
    // A hook that keeps failing must not keep the entry (and every later cleanup) stuck on it.
    try {
      if (user) await auth.options.hooks?.user?.delete?.after?.(user);
    } catch (error) {
      auth.options.logger.error("user delete after-hook failed while finishing a deletion", error);
    }
    completeJournaledDeletion(auth.collections, entry._id);
  }
  return entries.length;
}
