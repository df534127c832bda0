import type { AuthContext } from "../../context.ts";
import { generateRandomString, hashPassword } from "../../crypto/index.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { parseId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import {
  admitMail,
  apiLink,
  dispatchMail,
  type MailSender,
  queueNoMail,
  toMailUser,
} from "../mail-dispatch.ts";
import { removeUnprovenPasskeys } from "../passkey/index.ts";
import { establishSession } from "../session/index.ts";
import { signOutEverywhere } from "../sign-out-everywhere.ts";
import { dropUnprovenProviderAccounts } from "../social/index.ts";
import { forgetSecondFactorSessions } from "../two-factor/index.ts";
import {
  createCredentialAccount,
  findCredentialAccount,
  findUserByEmail,
  findUserById,
  proveUserPassword,
  updateCredentialPassword,
} from "../users/index.ts";
import {
  consumeVerification,
  createVerification,
  deleteResetTokensOfUser,
  findVerification,
} from "../verification/index.ts";
import {
  isResetTokenShaped,
  RESET_TOKEN_LENGTH,
  resetLinkMinutes,
  resetPasswordIdentifier,
} from "./rules.ts";

/**
 * Issues a reset token and mails its link. Every address sends the same database commands in the
 * same order — the user lookup, the mail limit, a mail row, a token row — and the mail leaves in
 * the background, so neither the answer, its timing, nor a failing mailer reveals whether the
 * address exists (the error catalogue, docs/decisions/0011-sign-up-and-enumeration.md,
 * docs/security.md "Enumeration"). The mail's row goes before the token (queue.linkStored): a crash
 * between leaves a mail whose link is dead, never a live token nobody was mailed (docs/architecture.md
 * "Mail"). An unknown address, or one the mail limit refuses, gets inert rows instead: a mail row
 * never sent (queueNoMail) and a token expired on arrival that names nobody.
 */
export async function requestPasswordReset(
  auth: AuthContext,
  email: string,
  redirectTo: string | undefined,
  sender: MailSender,
): Promise<void> {
  const user = await findUserByEmail(auth.collections, email);
  const token = generateRandomString(RESET_TOKEN_LENGTH);
  const identifier = resetPasswordIdentifier(token);
  const now = auth.now();
  const expiresIn = auth.options.emailAndPassword.resetPasswordTokenExpiresIn;
  const expiresAt = new Date(now.getTime() + expiresIn * 1000);
  const hook = auth.options.mail?.sendResetPassword;
  // Counted for an unknown address too (features/mail-limit); a failure of the limit's write is
  // logged, not answered, for every address alike.
  const admitted = await admitMail(auth, "reset-password", email, sender).catch((error: unknown) => {
    auth.options.logger.error("reset-password mail failed", error);
    return false;
  });
  if (!user || !admitted) {
    await queueNoMail(auth, "reset-password", hook);
    // An insert, not a find: on FerretDB v1 a find by identifier scans the collection while an
    // insert does not, so a find here made unknown addresses measurably slower. The row is inert
    // (expired on arrival, names no user) and auth.cleanup() removes it.
    await createVerification(auth.collections, identifier, "", now, now);
    return;
  }
  const url = apiLink(auth, `/reset-password/${token}`, { callbackURL: redirectTo ?? "/" });
  const storeToken = async () => {
    await createVerification(auth.collections, identifier, user._id.toHexString(), expiresAt, now);
  };
  await dispatchMail(
    auth,
    "reset-password",
    user,
    { url, name: user.name, expiresInMinutes: resetLinkMinutes(expiresIn) },
    hook && (() => hook({ user: toMailUser(user), url, token })),
    {
      background: "reset-password mail failed",
      admitted: true,
      queue: { expiresAt, userId: user._id, beside: false, linkStored: storeToken },
    },
  );
}

/** True when the token names a live reset row; never consumes it (the GET link only forwards it). */
export async function isResetTokenLive(auth: AuthContext, token: string): Promise<boolean> {
  if (!isResetTokenShaped(token)) return false;
  return (await findVerification(auth.collections, resetPasswordIdentifier(token), auth.now())) !== null;
}

/**
 * The user a live reset link is for, without using it up; null when the token names nobody. Read
 * before the password rules, which need the account's address (PASSWORD_CONTEXT_SPECIFIC), so that
 * a refused password never burns the token.
 */
export async function findResetLinkUser(auth: AuthContext, token: string): Promise<UserDoc | null> {
  if (!isResetTokenShaped(token)) return null;
  const row = await findVerification(auth.collections, resetPasswordIdentifier(token), auth.now());
  const userId = row ? parseId(row.value) : null;
  return userId ? findUserById(auth.collections, userId) : null;
}

/**
 * Takes the token atomically (of concurrent uses exactly one wins) — only while it still names
 * `user` (findResetLinkUser) — then sets the credential password, creating the credential account
 * of a user who had none (a social-only user). The caller has checked the password already, so a
 * refused password never burns the token. Refused FAILED_TO_UPDATE_USER when an account update hook
 * refuses the new password (the token is spent; nothing else changes).
 */
export async function resetPassword(
  auth: AuthContext,
  token: string,
  user: UserDoc | null,
  newPassword: string,
): Promise<Outcome<void, "INVALID_TOKEN" | "FAILED_TO_UPDATE_USER">> {
  if (!user || !isResetTokenShaped(token)) return refused("INVALID_TOKEN");
  const identifier = resetPasswordIdentifier(token);
  const row = await consumeVerification(auth.collections, identifier, auth.now(), user._id.toHexString());
  if (!row) return refused("INVALID_TOKEN");
  return setPasswordByMailProof(auth, user, newPassword);
}

/**
 * What follows a reset proven by mail (a reset link, or a mailed code: features/passwordless), once
 * the proof is spent: the credential password is set — the credential account created for a user
 * who had none — and everything the old one could have minted ends. The caller has checked the
 * password against the password rules. Refused FAILED_TO_UPDATE_USER when an account update hook
 * refuses the new password (nothing else changes).
 */
export async function setPasswordByMailProof(
  auth: AuthContext,
  user: UserDoc,
  newPassword: string,
): Promise<Outcome<void, "FAILED_TO_UPDATE_USER">> {
  const hash = await hashPassword(newPassword);
  const account = await findCredentialAccount(auth.collections, user._id);
  // An account update hook may veto the change: the caller must not be told it succeeded (and
  // nothing else — other links, sessions — changes for a password that did not change).
  if (account) {
    if (!(await updateCredentialPassword(auth, account, hash))) return refused("FAILED_TO_UPDATE_USER");
  } else await createCredentialAccount(auth, user._id, hash);
  await revokeResetLinks(auth, user._id);
  // The mailed link proves the mailbox: provider identities linked while it was unproven go (H9).
  await dropUnprovenProviderAccounts(auth, user._id);
  // So do passkeys registered while it was unproven (docs/passkeys.md "A pre-registered account").
  const strangerPasskeys = await removeUnprovenPasskeys(auth, user._id);
  // Devices trusted and challenges won with the old password do not outlive it (two-factor).
  await forgetSecondFactorSessions(auth, user._id);
  // ASVS 7.4.3 / docs/security.md: on by default (revokeSessionsOnPasswordReset), unlike the reference.
  // All of them: the impersonation sessions the user started as an admin too,
  // and the API keys a stolen session could have minted (docs/security.md "Account recovery").
  // Whatever the option, when a stranger's passkeys went, so do the sessions they may have made.
  if (auth.options.emailAndPassword.revokeSessionsOnPasswordReset || strangerPasskeys > 0)
    await signOutEverywhere(auth, user._id);
  return granted(undefined);
}

/** Checks the current password, then stores the new one. */
export async function changePassword(
  auth: AuthContext,
  userId: ObjectId,
  currentPassword: string,
  newPassword: string,
): Promise<Outcome<void, "CREDENTIAL_ACCOUNT_NOT_FOUND" | "INVALID_PASSWORD" | "FAILED_TO_UPDATE_USER">> {
  const proof = await proveUserPassword(auth, { _id: userId }, currentPassword);
  if (!proof.ok)
    return refused(
      proof.reason === "no-credential-account" ? "CREDENTIAL_ACCOUNT_NOT_FOUND" : "INVALID_PASSWORD",
    );
  // An account update hook may veto the change: the caller must not be told it succeeded.
  if (!(await updateCredentialPassword(auth, proof.account, await hashPassword(newPassword)))) {
    return refused("FAILED_TO_UPDATE_USER");
  }
  await revokeResetLinks(auth, userId);
  return granted(undefined);
}

/**
 * Voids every reset link of the user still sitting in a mailbox when the password changes (change,
 * set, reset, admin set): a link mailed before must not undo the new password. An
 * address move does the same in verification/email-state.ts settleEmailMove.
 */
export async function revokeResetLinks(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteResetTokensOfUser(auth.collections, userId.toHexString());
}

/**
 * Replaces the caller's session with a new one and signs the user out everywhere else
 * (features/sign-out-everywhere.ts: every other session, the old current one included, the
 * impersonations they started, the API keys their sessions minted), and forgets their trusted
 * devices and pending two-factor challenges. The new session is written before the others are
 * deleted, so a failure part-way never leaves the user signed out; its cookies are set last.
 * Through the session pipeline like every other session: the caller's live session was read from
 * the database (no ban to check) and passed the second factor, whose remember choice it keeps.
 */
export async function replaceAllSessions(
  auth: AuthContext,
  jar: CookieJar,
  caller: { session: SessionDoc; user: UserDoc },
  request: { ip: string | null; userAgent: string | null },
): Promise<SessionDoc> {
  const { session } = await establishSession(
    auth,
    { cookies: jar, ip: request.ip, userAgent: request.userAgent },
    caller.user,
    {
      rememberMe: !caller.session.dontRemember,
      ban: "not-applicable",
      secondFactor: "passed",
      async beforeCookies(minted) {
        await signOutEverywhere(auth, caller.user._id, minted.token);
        await forgetSecondFactorSessions(auth, caller.user._id);
      },
    },
  );
  return session;
}

/** Gives a user without a password one; the unique credential-account index settles concurrent creates. */
export async function setPassword(
  auth: AuthContext,
  userId: ObjectId,
  newPassword: string,
): Promise<Outcome<void, "PASSWORD_ALREADY_SET" | "FAILED_TO_UPDATE_USER">> {
  const existing = await findCredentialAccount(auth.collections, userId);
  if (existing?.password) return refused("PASSWORD_ALREADY_SET");
  const hash = await hashPassword(newPassword);
  if (existing) {
    // Only while still unset (a concurrent call may have set it), through the account update hooks.
    if (!(await updateCredentialPassword(auth, existing, hash, null))) {
      const now = await findCredentialAccount(auth.collections, userId);
      if (now?.password) return refused("PASSWORD_ALREADY_SET");
      return refused("FAILED_TO_UPDATE_USER"); // an account update hook refused
    }
  } else {
    try {
      await createCredentialAccount(auth, userId, hash);
    } catch (error) {
      // The unique (providerId, accountId) index: a concurrent call created the account first
      // (createCredentialAccount, users/service.ts, throws with the insert's error as its cause).
      if (error instanceof Error && isDuplicateKeyError(error.cause)) return refused("PASSWORD_ALREADY_SET");
      throw error;
    }
  }
  await revokeResetLinks(auth, userId);
  return granted(undefined);
}
