import type { AuthContext } from "../../context.ts";
import { sha256Base64Url } from "../../crypto/index.ts";
import type { UserDoc } from "../../db/documents.ts";
import { parseId } from "../../db/ids.ts";
import type { SessionWithUser } from "../session/index.ts";
import { clearNewDeviceFailures } from "../sign-in-throttle/index.ts";
import { findUserByEmail, findUserById } from "../users/index.ts";
import { markEmailVerified, moveUserEmail, moveUserEmailMailingVerification } from "./email-state.ts";
import type { VerificationClaims, VerifyFailure } from "./rules.ts";
import { readEmailVerificationToken, sendChangeEmailLink } from "./service.ts";
import { claimOneTimeToken, releaseOneTimeToken } from "./store.ts";

export type VerifyOutcome =
  | { ok: true; user: UserDoc; claims: VerificationClaims; becameVerified: boolean }
  | { ok: false; reason: VerifyFailure };

/**
 * The user a token was minted for, at the address it names; null when that user is gone or has moved
 * to another address since (the token then verifies nothing, docs/security.md).
 */
async function findTokenUser(auth: AuthContext, claims: VerificationClaims): Promise<UserDoc | null> {
  if (claims.userId === null) return findUserByEmail(auth.collections, claims.email);
  const id = parseId(claims.userId);
  const user = id ? await findUserById(auth.collections, id) : null;
  return user && user.email === claims.email ? user : null;
}

/**
 * GET /verify-email: verifies the address a token names, or applies the email
 * change it carries. Tokens are stateless; one-time use of a change token comes from a unique
 * marker row (claimChangeLink), and once moved, the token's user no longer has its address.
 */
export async function verifyEmailToken(
  auth: AuthContext,
  token: string,
  caller: SessionWithUser | null,
  callbackURL: string | undefined,
): Promise<VerifyOutcome> {
  const check = await readEmailVerificationToken(auth, token);
  if (!check.ok) return check;
  const claims = check.claims;
  const user = await findTokenUser(auth, claims);
  if (!user) return { ok: false, reason: "user_not_found" };
  // A change link acts on its own account only: a signed-in visitor must be that user.
  if (claims.updateTo !== null && caller && !caller.user._id.equals(user._id))
    return { ok: false, reason: "unauthorized" };
  const outcome =
    claims.updateTo === null
      ? await applyVerification(auth, claims, user)
      : await applyEmailChange(auth, { claims, token }, claims.updateTo, user, callbackURL);
  // The link proved the mailbox: a stranger's failed sign-ins no longer delay the owner's new
  // devices (docs/decisions/0007-a-mailed-link-ends-the-strangers-delays.md "A mailed link ends the stranger's delays").
  if (outcome.ok && outcome.becameVerified) await clearNewDeviceFailures(auth, outcome.user._id);
  return outcome;
}

/** Idempotent: an already verified address answers success without a write (and without sign-in). */
async function applyVerification(
  auth: AuthContext,
  claims: VerificationClaims,
  user: UserDoc,
): Promise<VerifyOutcome> {
  if (user.emailVerified) return { ok: true, user, claims, becameVerified: false };
  const written = await markEmailVerified(auth, user);
  if (written.ok) {
    // The mailbox owner wins over provider identities linked while the address was unproven (H9).
    await auth.onEmailProven(auth, written.user);
    return { ok: true, user: written.user, claims, becameVerified: true };
  }
  if (written.reason === "refused") return { ok: false, reason: "unauthorized" };
  // Lost a race: a concurrent click verified it (success, no second sign-in) or the address moved.
  const current = await findTokenUser(auth, claims);
  if (current?.emailVerified) return { ok: true, user: current, claims, becameVerified: false };
  return { ok: false, reason: "user_not_found" };
}

/**
 * A mailed code or link proved the mailbox of a user (features/passwordless), as a verification
 * link does: the address becomes verified, provider identities linked while it was unproven go (H9),
 * and a stranger's failed sign-ins no longer delay the owner's new devices. The user as stored
 * afterwards; null when it changed meanwhile (or a user update hook refused).
 */
export async function markMailboxProven(auth: AuthContext, user: UserDoc): Promise<UserDoc | null> {
  if (user.emailVerified) return user;
  const written = await markEmailVerified(auth, user);
  if (!written.ok) return null;
  await auth.onEmailProven(auth, written.user);
  await clearNewDeviceFailures(auth, user._id);
  return written.user;
}

/**
 * One auto sign-in per link. The verified flag's compare-and-set is not atomic on FerretDB v1, so
 * concurrent clicks can each see the address become verified (measured: 2–3 of 10); the unique
 * marker lets exactly one of them mint a session. It outlives the token, like the change-email one.
 */
export function claimAutoSignIn(auth: AuthContext, token: string): Promise<boolean> {
  const marker = `verify-email-sign-in:${sha256Base64Url(token)}`;
  const expiresAt = new Date(auth.now().getTime() + auth.options.emailVerification.expiresIn * 1000);
  return claimOneTimeToken(auth.collections, marker, expiresAt, auth.now());
}

/**
 * One use per change link, also under concurrent clicks (the compare-and-set of moveUserEmail is not
 * atomic on FerretDB v1). Returns the claimed marker (released when the action then fails), or null
 * when the link was used already. The marker outlives the token: it expires when the token can no
 * longer verify.
 */
async function claimChangeLink(auth: AuthContext, token: string): Promise<string | null> {
  const marker = `change-email-used:${sha256Base64Url(token)}`;
  const expiresAt = new Date(auth.now().getTime() + auth.options.emailVerification.expiresIn * 1000);
  return (await claimOneTimeToken(auth.collections, marker, expiresAt, auth.now())) ? marker : null;
}

async function applyEmailChange(
  auth: AuthContext,
  { claims, token }: { claims: VerificationClaims; token: string },
  newEmail: string,
  user: UserDoc,
  callbackURL: string | undefined,
): Promise<VerifyOutcome> {
  if (
    claims.requestType === "change-email-confirmation" &&
    auth.options.user.changeEmail.verifyNewEmailFirst
  ) {
    return forwardChangeToNewAddress(auth, { claims, token }, newEmail, user, callbackURL);
  }
  const marker = await claimChangeLink(auth, token);
  if (!marker) return { ok: false, reason: "user_not_found" };
  // A link followed from the new mailbox proves it: the moved address stays verified.
  const provenNewAddress = claims.requestType === "change-email-verification";
  // Else the moved address is unverified: its new mailbox gets a verification link, whose mail's row
  // is stored before the move (docs/architecture.md "Mail").
  const moved = provenNewAddress
    ? await moveUserEmail(auth, user, newEmail, true)
    : await moveUserEmailMailingVerification(auth, user, newEmail, callbackURL);
  if (!moved.ok) {
    await releaseOneTimeToken(auth.collections, marker);
    const reasons = { taken: "email_taken", stale: "user_not_found", refused: "unauthorized" } as const;
    return { ok: false, reason: reasons[moved.reason] };
  }
  return { ok: true, user: moved.user, claims, becameVerified: provenNewAddress };
}

/**
 * verifyNewEmailFirst (#7196): the current address agreed; nothing moves until the new address
 * confirms as well. One use too: a link that mailed on every click would let its holder flood the
 * new address.
 */
async function forwardChangeToNewAddress(
  auth: AuthContext,
  { claims, token }: { claims: VerificationClaims; token: string },
  newEmail: string,
  user: UserDoc,
  callbackURL: string | undefined,
): Promise<VerifyOutcome> {
  if (await findUserByEmail(auth.collections, newEmail)) return { ok: false, reason: "email_taken" };
  // The new address's mail is stored first and the old link spent as its linkStored, so a crash
  // between the two never leaves a spent link whose mail was lost (docs/architecture.md "Mail").
  const spent: { marker: string | null } = { marker: null };
  const spendOldLink = async () => {
    spent.marker = await claimChangeLink(auth, token);
    if (!spent.marker) throw new LinkUsedAlready();
  };
  try {
    await sendChangeEmailLink(auth, user, newEmail, "change-email-verification", callbackURL, spendOldLink);
  } catch (error) {
    // Used already: its mail is dropped unsent.
    if (error instanceof LinkUsedAlready) return { ok: false, reason: "user_not_found" };
    // Not sent: the link may be used again.
    if (spent.marker) await releaseOneTimeToken(auth.collections, spent.marker);
    throw error;
  }
  return { ok: true, user, claims, becameVerified: false };
}

/** The old link was spent by another click: the new address's mail is dropped (forwardChangeToNewAddress). */
class LinkUsedAlready extends Error {}
