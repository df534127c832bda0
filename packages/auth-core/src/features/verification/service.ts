import type { AuthContext } from "../../context.ts";
import { signJwt, verifyJwt } from "../../crypto/index.ts";
import type { UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import {
  admitMail,
  apiLink,
  dispatchMail,
  type MailDelivery,
  type MailSender,
  toMailUser,
} from "../mail-dispatch.ts";
import { findUserByEmail } from "../users/index.ts";
import { readVerificationClaims, type VerificationClaims, type VerificationRequestType } from "./rules.ts";

/**
 * Email verification tokens are signed JWTs (docs/decisions/: HS256, 3600 s) carrying the email and,
 * for an email change, the new address. Stateless: no row is stored. `userId` binds the token to one
 * user: once that user's address changes, a token minted for the old address verifies nothing
 * (docs/security.md), even if someone else later registers the old address.
 */
export async function createEmailVerificationToken(
  auth: AuthContext,
  email: string,
  updateTo?: string,
  options: { userId?: ObjectId; requestType?: VerificationRequestType } = {},
): Promise<string> {
  const payload: Record<string, unknown> = { email, purpose: "verify-email" };
  if (updateTo) payload.updateTo = updateTo;
  if (options.userId) payload.sub = options.userId.toHexString();
  if (options.requestType) payload.requestType = options.requestType;
  return signJwt(payload, auth.options.secret, auth.options.emailVerification.expiresIn, auth.now());
}

export type TokenCheck =
  | { ok: true; claims: VerificationClaims }
  | { ok: false; reason: "token_expired" | "invalid_token" };

/** Checks signature, expiry (against the injected clock) and purpose; never touches the database. */
export async function readEmailVerificationToken(auth: AuthContext, token: string): Promise<TokenCheck> {
  const check = await verifyJwt(token, auth.options.secret, auth.now());
  if (!check.ok) return { ok: false, reason: check.reason === "expired" ? "token_expired" : "invalid_token" };
  const claims = readVerificationClaims(check.payload as Record<string, unknown>);
  return claims ? { ok: true, claims } : { ok: false, reason: "invalid_token" };
}

export function verificationLink(auth: AuthContext, token: string, callbackURL: string | undefined): string {
  return apiLink(auth, "/verify-email", { token, callbackURL: callbackURL ?? "/" });
}

/**
 * Sends the verification link for the user's current address (template "verify-email", or the
 * app's `mail.sendVerificationEmail` hook), asked for by the signed-in user (the mail limit counts
 * it as that account's). Awaited: a delivery failure fails the request.
 */
export async function sendVerificationEmail(
  auth: AuthContext,
  user: UserDoc,
  callbackURL: string | undefined,
  options: { requestType?: "post-change-verification" } = {},
): Promise<void> {
  const token = await createEmailVerificationToken(auth, user.email, undefined, {
    userId: user._id,
    requestType: options.requestType,
  });
  const url = verificationLink(auth, token, callbackURL);
  await deliverVerificationMail(auth, user, token, url, { sender: { kind: "user", id: user._id } });
}

/**
 * Like sendVerificationEmail, but the delivery is not awaited (failures are logged): for answers
 * that must not depend on the mailer — sign-up must answer a new address as fast as an existing one
 * (docs/security.md), and a failing mailer must not fail a sign-up whose user is already stored.
 * The dev outbox and the mail hooks still receive the mail before this returns.
 */
export async function sendVerificationEmailInBackground(
  auth: AuthContext,
  user: UserDoc,
  callbackURL: string | undefined,
  sender: MailSender,
): Promise<void> {
  const token = await createEmailVerificationToken(auth, user.email, undefined, { userId: user._id });
  const url = verificationLink(auth, token, callbackURL);
  await deliverVerificationMail(auth, user, token, url, inBackground(sender));
}

/**
 * Creates a signed-up user (sign-up/email, passkey sign-up) with `create`, given the id to store
 * when the sign-up mails its verification link (emailVerification.sendOnSignUp, by default when
 * verification is required); without that mail, `create()` alone. A mailed sign-up's mail row is
 * stored first, already naming the user's id, then the user by `create` (queue.linkStored), then the
 * mail is sent. A crash between leaves a mail whose link verifies nobody, never an unverified user
 * nobody mailed (docs/architecture.md "Mail"). When `create` stores no user (the address is taken,
 * a hook refused) the mail is dropped, never sent. Costs what the old order cost — the mail limit
 * and one awaited insert — for a taken address too, so sign-up still answers a new and a taken
 * address alike (docs/security.md "Enumeration"). A create hook that changes the address has the
 * mail dropped and one sent for the stored address after the user, as before this order.
 */
export async function createSignedUpUser<T extends { ok: true; user: UserDoc } | { ok: false }>(
  auth: AuthContext,
  pending: Pick<UserDoc, "email" | "name" | "language">,
  callbackURL: string | undefined,
  sender: MailSender,
  create: (id?: ObjectId) => Promise<T>,
): Promise<T> {
  const { emailVerification, emailAndPassword } = auth.options;
  const mailed = emailVerification.sendOnSignUp ?? emailAndPassword.requireEmailVerification;
  if (!mailed || !emailVerification.enabled) return create();
  const now = auth.now();
  const user: UserDoc = {
    _id: new ObjectId(),
    ...pending,
    image: null,
    emailVerified: false,
    createdAt: now,
    updatedAt: now,
  };
  const token = await createEmailVerificationToken(auth, user.email, undefined, { userId: user._id });
  const url = verificationLink(auth, token, callbackURL);
  let created: T | null = null;
  const stored = async () => {
    created = await create(user._id);
    if (!created.ok || created.user.email !== user.email || !created.user._id.equals(user._id))
      throw new NotMailed();
  };
  try {
    await deliverVerificationMail(auth, user, token, url, inBackground(sender), {
      beside: false,
      linkStored: stored,
    });
  } catch (error) {
    if (!(error instanceof NotMailed)) throw error;
  }
  const result = created as T | null;
  if (!result) throw new Error("sign-up: the user's creation did not run");
  if (result.ok && (result.user.email !== user.email || !result.user._id.equals(user._id)))
    await sendVerificationEmailInBackground(auth, result.user, callbackURL, sender);
  return result;
}

/** The write a mail's link depends on did not store what the mail names: the mail is dropped. */
export class NotMailed extends Error {}

const inBackground = (sender: MailSender): MailDelivery => ({
  background: "verification email could not be sent",
  sender,
});

export function deliverVerificationMail(
  auth: AuthContext,
  user: UserDoc,
  token: string,
  url: string,
  delivery: MailDelivery,
  queue: Partial<NonNullable<MailDelivery["queue"]>> = {},
): Promise<boolean> {
  const hook = auth.options.mail?.sendVerificationEmail;
  return dispatchMail(
    auth,
    "verify-email",
    user,
    { url, name: user.name },
    hook && (() => hook({ user: toMailUser(user), url, token })),
    { ...delivery, queue: { ...tokenQueue(auth, user), ...queue } },
  );
}

/** Verification and change-email links live as long as their signed token (emailVerification.expiresIn). */
function tokenQueue(auth: AuthContext, user: UserDoc): NonNullable<MailDelivery["queue"]> {
  return {
    expiresAt: new Date(auth.now().getTime() + auth.options.emailVerification.expiresIn * 1000),
    userId: user._id,
  };
}

/**
 * The unauthenticated send-verification path (docs/decisions/, docs/security.md): the
 * caller learns nothing. A token is signed for every address so unknown, verified and unverified
 * addresses cost the same work; the mail goes only to an existing unverified user and is not awaited
 * (a slow mailer must not reveal that a mail was sent; failures are logged). The dev outbox and the
 * mail hooks receive the mail before this returns. An address that gets no mail still counts one
 * against the mail limit, so every address costs the same database commands.
 */
export async function sendVerificationEmailQuietly(
  auth: AuthContext,
  email: string,
  callbackURL: string | undefined,
  sender: MailSender,
): Promise<void> {
  const user = await findUserByEmail(auth.collections, email);
  const token = await createEmailVerificationToken(auth, email, undefined, { userId: user?._id });
  if (!user || user.emailVerified) {
    await admitMail(auth, "verify-email", email, sender);
    return;
  }
  const url = verificationLink(auth, token, callbackURL);
  await deliverVerificationMail(auth, user, token, url, inBackground(sender));
}

/**
 * Mails a change-email link whose token carries `updateTo`. Kind "change-email-confirmation" goes to
 * the CURRENT address (template "change-email", hook `mail.sendChangeEmailVerification`); kind
 * "change-email-verification" goes to the NEW address (template "verify-email", hook
 * `mail.sendVerificationEmail` with the new address as the user's email, as Better Auth does).
 * `linkStored` (the new address's mail only): the write the link depends on, run after the mail's
 * row and before its send; the mail limit is counted after it. Its failure is thrown, the mail dropped.
 */
export async function sendChangeEmailLink(
  auth: AuthContext,
  user: UserDoc,
  newEmail: string,
  requestType: "change-email-confirmation" | "change-email-verification",
  callbackURL: string | undefined,
  linkStored?: () => Promise<void>,
): Promise<void> {
  const token = await createEmailVerificationToken(auth, user.email, newEmail, {
    userId: user._id,
    requestType,
  });
  const url = verificationLink(auth, token, callbackURL);
  // The new address may be anyone's: the mail counts as the requesting account's (features/mail-limit).
  const sender: MailSender = { kind: "user", id: user._id };
  if (requestType === "change-email-verification") {
    const recipient = { ...user, email: newEmail };
    if (!linkStored) {
      await deliverVerificationMail(auth, recipient, token, url, { sender });
      return;
    }
    // The mail limit is counted after the link's write, not before the mail's row: a write refused
    // (a link spent already, by a replay or a concurrent click) costs the limit nothing, so it can
    // never refuse the one mail whose write won. Past the limit the write stands, unmailed, as before.
    const storedThenAdmitted = async () => {
      await linkStored();
      const admitted = await admitMail(auth, "verify-email", newEmail, sender).catch((error: unknown) => {
        auth.options.logger.error("verify-email mail could not be counted", error);
        return false;
      });
      if (!admitted) throw new NotMailed();
    };
    try {
      await deliverVerificationMail(
        auth,
        recipient,
        token,
        url,
        { sender, admitted: true },
        {
          linkStored: storedThenAdmitted,
        },
      );
    } catch (error) {
      if (!(error instanceof NotMailed)) throw error;
    }
    return;
  }
  const hook = auth.options.mail?.sendChangeEmailVerification;
  await dispatchMail(
    auth,
    "change-email",
    user,
    { url, newEmail },
    hook && (() => hook({ user: toMailUser(user), newEmail, url, token })),
    { queue: tokenQueue(auth, user) },
  );
}
