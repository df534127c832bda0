import type { AuthContext } from "../../context.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { UserDoc } from "../../db/documents.ts";
import { applyAfterHook, applyBeforeHook } from "../hooks.ts";
import { dispatchMail, type MailSender, toMailUser } from "../mail-dispatch.ts";
import { findUserByEmail, updateUserMovingAddress } from "../users/index.ts";
import {
  createEmailVerificationToken,
  deliverVerificationMail,
  NotMailed,
  sendVerificationEmail,
  verificationLink,
} from "./service.ts";
import { deleteResetTokensOfUser } from "./store.ts";

/**
 * A user's address and its verified state, written (verify, move) and what follows a move: one
 * place for every feature that changes them (account change-email, verify-email, admin).
 */

export type UserWrite = { ok: true; user: UserDoc } | { ok: false; reason: "stale" | "taken" | "refused" };

/**
 * Writes email state through the user update hooks, as a compare-and-set on the address the caller
 * saw (and on `emailVerified` when given): "stale" when the user changed or vanished meanwhile,
 * "taken" when the new address belongs to someone else (unique index), "refused" by a hook.
 */
async function writeEmailState(
  auth: AuthContext,
  user: UserDoc,
  expectedVerified: boolean | undefined,
  fields: { email?: string; emailVerified: boolean },
): Promise<UserWrite> {
  const hooks = auth.options.hooks?.user?.update;
  const data = await applyBeforeHook<Partial<UserDoc>>(hooks, { ...fields, updatedAt: auth.now() });
  if (!data) return { ok: false, reason: "refused" };
  const { _id: _ignoredId, createdAt: _ignoredCreatedAt, ...safe } = data;
  let updated: UserDoc | null | "taken";
  try {
    updated = await updateUserMovingAddress(auth, user, safe, auth.now(), {
      emailVerified: expectedVerified,
    });
  } catch (error) {
    if (safe.email !== undefined && (await isTakenByAnother(auth, error, user, safe.email)))
      return { ok: false, reason: "taken" };
    throw error;
  }
  if (updated === "taken") return { ok: false, reason: "taken" };
  if (!updated) return { ok: false, reason: "stale" };
  await applyAfterHook(hooks, updated);
  return { ok: true, user: updated };
}

/**
 * A unique-index violation. MongoDB reports it as code 11000; FerretDB v1 (SQLite) reports a unique
 * violation on an update as a generic error, so the owner of the address is checked as well.
 */
async function isTakenByAnother(
  auth: AuthContext,
  error: unknown,
  user: UserDoc,
  email: string,
): Promise<boolean> {
  if (isDuplicateKeyError(error)) return true;
  const owner = await findUserByEmail(auth.collections, email).catch(() => null);
  return owner !== null && !owner._id.equals(user._id);
}

/** Sets emailVerified true, only while the user is still unverified at the same address. */
export function markEmailVerified(auth: AuthContext, user: UserDoc): Promise<UserWrite> {
  return writeEmailState(auth, user, false, { emailVerified: true });
}

/**
 * Moves the user's address (already trimmed and lower-cased) with the given verified state, only
 * while the user still has the address the caller saw. The unique email index decides races between
 * users moving to the same address: exactly one wins.
 */
export async function moveUserEmail(
  auth: AuthContext,
  user: UserDoc,
  newEmail: string,
  emailVerified: boolean,
): Promise<UserWrite> {
  const moved = await writeEmailState(auth, user, undefined, { email: newEmail, emailVerified });
  if (moved.ok) await settleEmailMove(auth, user, newEmail);
  return moved;
}

/**
 * Moves the user's address to `newEmail`, unverified, and mails the new address its verification
 * link: the link is signed and the mail's row stored first, the move runs as the mail's
 * `queue.linkStored`, then the mail is sent (docs/architecture.md "Mail", issue 34). A crash between
 * the two leaves a mail whose link verifies nobody (its user still has the old address), never a
 * moved address nobody mailed. A move refused (stale, taken, a hook) drops the mail unsent and is
 * returned as moveUserEmail returns it. A hook that changes the moved address has that mail dropped
 * and one sent for the stored address after the move, in the old order. Without emailVerification,
 * the move only.
 */
export async function moveUserEmailMailingVerification(
  auth: AuthContext,
  user: UserDoc,
  newEmail: string,
  callbackURL: string | undefined,
): Promise<UserWrite> {
  if (!auth.options.emailVerification.enabled) return moveUserEmail(auth, user, newEmail, false);
  const requestType = "post-change-verification";
  const token = await createEmailVerificationToken(auth, newEmail, undefined, {
    userId: user._id,
    requestType,
  });
  const url = verificationLink(auth, token, callbackURL);
  const write: { moved: UserWrite | null } = { moved: null };
  const move = async () => {
    write.moved = await writeEmailState(auth, user, undefined, { email: newEmail, emailVerified: false });
    // What follows a move goes before its mail's send, as when the move went first.
    if (write.moved.ok) await settleEmailMove(auth, user, newEmail);
    if (!write.moved.ok || write.moved.user.email !== newEmail) throw new NotMailed();
  };
  const moving: UserDoc = { ...user, email: newEmail, emailVerified: false };
  try {
    const sender: MailSender = { kind: "user", id: user._id };
    await deliverVerificationMail(auth, moving, token, url, { sender }, { linkStored: move });
  } catch (error) {
    if (!(error instanceof NotMailed)) throw error;
  }
  const moved = write.moved;
  if (!moved) throw new Error("change-email: the move did not run");
  if (!moved.ok) return moved;
  if (moved.user.email !== newEmail)
    await sendVerificationEmail(auth, moved.user, callbackURL, { requestType });
  return moved;
}

/**
 * What follows every move of a user's address, whoever made it (the user's change, its link, an
 * admin): reset links mailed to the old address die with it (a stale link must not undo a move),
 * and the old address hears of the move.
 */
export async function settleEmailMove(auth: AuthContext, previous: UserDoc, newEmail: string): Promise<void> {
  await deleteResetTokensOfUser(auth.collections, previous._id.toHexString());
  await notifyReplacedAddress(auth, previous, newEmail);
}

/**
 * docs/security.md: the address that was replaced hears of it — a session used to move the
 * account to another mailbox (an unverified user's address moves at once) does not do it unnoticed.
 * Delivered in the background: the move has happened whatever the mailer does (failures are logged).
 */
async function notifyReplacedAddress(auth: AuthContext, user: UserDoc, newEmail: string): Promise<void> {
  const hook = auth.options.mail?.sendEmailChangedNotice;
  // An unverified address may be a typo owned by a stranger: they hear of a change, not where to.
  const shown = user.emailVerified ? newEmail : null;
  await dispatchMail(
    auth,
    "email-changed",
    user,
    { newEmail: shown ?? undefined },
    hook && (() => hook({ user: toMailUser(user), newEmail: shown })),
    { background: "email change notice could not be sent" },
  );
}
