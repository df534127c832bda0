import { randomBytes } from "node:crypto";
import type { AuthContext } from "../../context.ts";
import { DIGITS, generateRandomString, sha256Base64Url } from "../../crypto/index.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { admitMail, apiLink, dispatchMail, type MailSender } from "../mail-dispatch.ts";
import { assertSignInWithoutSso } from "../sso-domains/index.ts";
import { findUserByEmail } from "../users/index.ts";
import {
  LINK_TOKEN_LENGTH,
  linkIdentifier,
  type MailedPurpose,
  type MailedRecord,
  macCode,
  mailMinutes,
  recordIdentifier,
  serializeRecord,
  signInMailParts,
} from "./rules.ts";
import { deleteRow, replaceRecord } from "./store.ts";

/** Where the mailed link leads after its confirmation (each checked against the trusted origins by the engine). */
export interface LinkDestinations {
  callbackURL?: string | undefined;
  newUserCallbackURL?: string | undefined;
  errorCallbackURL?: string | undefined;
}

interface Issued {
  code: string;
  token: string;
  /** The rows the record was stored in (withdrawn when its mail cannot be sent). */
  identifiers: string[];
}

/**
 * Stores the record of one mail, replacing the address's previous one (its link and code stop
 * working), and the link's row, in one command. The code is always drawn and the link row written whenever magic
 * links are on, for an address nobody has too, so every address costs the same commands; a part
 * the mail will not carry is stored so that nothing can match it.
 */
async function issueRecord(
  auth: AuthContext,
  purpose: MailedPurpose,
  email: string,
  parts: { link: boolean; code: boolean },
  holder: { userId: string | null; name: string | null; language: string | null },
): Promise<Issued> {
  const now = auth.now();
  const { secret } = auth.options;
  const nonce = randomBytes(16).toString("base64url");
  const code = generateRandomString(6, DIGITS);
  const token = generateRandomString(LINK_TOKEN_LENGTH);
  const codeExpiresAt = now.getTime() + auth.options.emailOTP.expiresIn * 1000;
  const linkExpiresAt = now.getTime() + auth.options.magicLink.expiresIn * 1000;
  const record: MailedRecord = {
    nonce,
    email,
    // Not six digits: no typed code has this MAC.
    code: macCode(secret, nonce, parts.code ? code : `unsent-${token}`),
    codeExpiresAt,
    link: parts.link ? sha256Base64Url(token) : null,
    linkExpiresAt,
    ...holder,
  };
  const id = recordIdentifier(secret, purpose, email);
  const expiresAt = new Date(Math.max(codeExpiresAt, linkExpiresAt));
  // With magic links off no mail of any address carries a link: skipping its row depends on the
  // options alone, so every address still costs the same commands.
  const link = auth.options.magicLink.enabled ? linkIdentifier(sha256Base64Url(token)) : null;
  await replaceRecord(
    auth.collections,
    { identifier: id, value: serializeRecord(record) },
    link,
    expiresAt,
    now,
  );
  return { code, token, identifiers: link === null ? [id] : [id, link] };
}

/**
 * A sign-in request (POST /sign-in/magic-link, or a code of type sign-in): one record and one mail
 * holding the link, the code, or both (rules.ts signInMailParts). The mail limit is counted first,
 * for every address: past it nothing is replaced (the mailbox's pending code keeps working) and
 * nothing is sent; the answer is the same either way (docs/security.md "Mail flooding"). Every
 * address gets the mail (a new one signs up by it), so waiting for the mailer tells nothing about
 * accounts: when the mail cannot be sent its link and code are withdrawn and the answer is
 * MAIL_UNAVAILABLE (docs/architecture.md "Mail": a secret valid for minutes is not queued).
 */
export async function mailSignIn(
  auth: AuthContext,
  email: string,
  request: { name?: string | undefined; language?: string | undefined; sender: MailSender },
  destinations: LinkDestinations,
): Promise<Outcome<void, "MAIL_UNAVAILABLE">> {
  // Independent: the lookup runs whether or not the limit admits, so every address costs the same.
  // An address of a domain requiring SSO is told so now, not after a mail whose link is refused
  // (features/sso-domains: SSO_REQUIRED), read beside them (no round trip added; a refused request
  // still counts toward the mail limit, as any request does). The answer tells the domain's policy,
  // the same for every address of it, never whether this one has an account. The sign-in checks
  // again (signInMailboxOwner): the policy may change while the mail waits.
  const [user, isAdmitted] = await Promise.all([
    findUserByEmail(auth.collections, email),
    admitMail(auth, "sign-in-link", email, request.sender),
    assertSignInWithoutSso(auth, { email }, "mail", { ip: null, userAgent: null }),
  ]);
  if (!isAdmitted) return granted(undefined);
  const parts = signInMailParts(auth.options, user !== null);
  // The user's saved language first; else the page's (a user who never chose one reads the mail in
  // the language the request came in, as a newcomer does).
  const language = user?.language ?? request.language ?? null;
  const holder = { userId: user?._id.toHexString() ?? null, name: request.name ?? null, language };
  const issued = await issueRecord(auth, "sign-in", email, parts, holder);
  if (!parts.link && !parts.code) return granted(undefined);
  const url = parts.link
    ? apiLink(auth, "/magic-link/verify", {
        token: issued.token,
        callbackURL: destinations.callbackURL ?? "/",
        newUserCallbackURL: destinations.newUserCallbackURL,
        errorCallbackURL: destinations.errorCallbackURL,
      })
    : undefined;
  const code = parts.code ? issued.code : undefined;
  const { sendMagicLink } = auth.options.magicLink;
  const { sendVerificationOTP } = auth.options.emailOTP;
  const hook =
    url && sendMagicLink
      ? () => sendMagicLink({ email, url, token: issued.token, code: code ?? null })
      : code && sendVerificationOTP
        ? () => sendVerificationOTP({ email, otp: code, type: "sign-in", url: url ?? null })
        : undefined;
  const minutes = mailMinutes(Math.min(auth.options.magicLink.expiresIn, auth.options.emailOTP.expiresIn));
  try {
    await dispatchMail(
      auth,
      "sign-in-link",
      { email, language: language ?? undefined },
      { url, code, expiresInMinutes: minutes },
      hook && (async () => void (await hook())),
      { admitted: true },
    );
    return granted(undefined);
  } catch (error) {
    auth.options.logger.error("sign-in mail could not be sent", error);
    for (const identifier of issued.identifiers) await deleteRow(auth.collections, identifier);
    return refused("MAIL_UNAVAILABLE");
  }
}

/**
 * A code that verifies the address (only an existing, unverified one gets it) or resets the
 * password (only an existing user gets it). Same commands and answer for every address: the record
 * is stored for an address that gets no mail too, with a code nobody holds.
 */
export async function mailCode(
  auth: AuthContext,
  email: string,
  purpose: "email-verification" | "forget-password",
  sender: MailSender,
): Promise<void> {
  const [user, isAdmitted] = await Promise.all([
    findUserByEmail(auth.collections, email),
    admitMail(auth, "email-otp", email, sender),
  ]);
  if (!isAdmitted) return;
  const mailed = user !== null && (purpose === "forget-password" || !user.emailVerified);
  const issued = await issueRecord(
    auth,
    purpose,
    email,
    { link: false, code: mailed },
    { userId: user?._id.toHexString() ?? null, name: null, language: null },
  );
  if (!user || !mailed) return;
  const hook = auth.options.emailOTP.sendVerificationOTP;
  await dispatchMail(
    auth,
    "email-otp",
    user,
    { code: issued.code, purpose, expiresInMinutes: mailMinutes(auth.options.emailOTP.expiresIn) },
    hook &&
      (async () => void (await hook({ email: user.email, otp: issued.code, type: purpose, url: null }))),
    { background: "code mail could not be sent", admitted: true },
  );
}
