import type { AuthContext } from "../../context.ts";
import type { TwoFactorRedirect } from "../../contracts/two-factor.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { type Granted, granted, type Refused, refused } from "../../errors/refusal.ts";
import { removeUnprovenPasskeys } from "../passkey/index.ts";
import { establishSession, type SessionRequest } from "../session/index.ts";
import { signOutEverywhere } from "../sign-out-everywhere.ts";
import {
  assertSignInWithoutSso,
  type DomainPolicy,
  joinVerifiedDomainOrganization,
} from "../sso-domains/index.ts";
import { removeTwoFactorEnrollment } from "../two-factor/index.ts";
import { createUser, deleteCredentialAccount, findUserByEmail, isBanActive } from "../users/index.ts";
import { markMailboxProven } from "../verification/index.ts";
import type { MailedRecord } from "./rules.ts";

export type MailSignIn =
  | { kind: "session"; session: SessionDoc; user: UserDoc; isNewUser: boolean }
  | { kind: "challenge"; answer: TwoFactorRedirect };

export type MailSignInRefusal = Refused<"BANNED_USER" | "SIGNUP_DISABLED" | "UNABLE_TO_CREATE_USER">;

/**
 * Signs in the owner of a mailbox that a spent link or code proved (docs/passwordless.md), through
 * the session pipeline like every sign-in: ban check, then the second-factor gate. An address
 * nobody has (`holder` null: checks.ts findRecordHolder) is signed up — through users' createUser, as
 * any sign-up: its address claim, its hooks, verified — unless `signUpDisabled`. A banned user is
 * refused before anything changes.
 */
export async function signInMailboxOwner(
  auth: AuthContext,
  request: SessionRequest,
  record: MailedRecord,
  holder: UserDoc | null,
  options: {
    signUpDisabled: boolean;
    name?: string | undefined;
    rememberMe: boolean;
    /** The require-SSO check of the record's address, when the caller started it already (readSsoPolicyEarly). */
    ssoCheck?: Promise<DomainPolicy>;
  },
): Promise<Granted<MailSignIn> | MailSignInRefusal> {
  // Before a sign-up too: an address of a domain requiring SSO gets no account this way either.
  const policy = await (options.ssoCheck ??
    assertSignInWithoutSso(auth, { email: record.email }, "mail", request));
  let user = holder;
  if (!user) {
    if (options.signUpDisabled) return refused("SIGNUP_DISABLED");
    const created = await signUpMailboxOwner(auth, record, options.name, policy);
    if (created === "refused") return refused("UNABLE_TO_CREATE_USER");
    if (created !== "raced") {
      const { session } = await establishSession(auth, request, created, {
        rememberMe: options.rememberMe,
        ban: "not-applicable",
        secondFactor: "not-applicable",
      });
      return granted({ kind: "session", session, user: created, isNewUser: true });
    }
    // A concurrent sign-up of the address won: sign in as its user.
    user = await findUserByEmail(auth.collections, record.email);
    if (!user) return refused("UNABLE_TO_CREATE_USER");
  }
  if (isBanActive(user, auth.now())) return refused("BANNED_USER");
  if (!user.emailVerified) {
    const proven = await takeOverUnprovenAccount(auth, user);
    if (!proven) return refused("UNABLE_TO_CREATE_USER");
    user = proven;
  }
  const established = await establishSession(auth, request, user, {
    rememberMe: options.rememberMe,
    ban: "check",
    secondFactor: "gate",
  });
  if (established.kind === "banned") return refused("BANNED_USER");
  if (established.kind === "challenge") return granted(established);
  return granted({ ...established, isNewUser: false });
}

/**
 * Starts the require-SSO check of a mailed sign-in for `email` at once, for signInMailboxOwner to
 * await once the code is accepted: the domain's policy is read beside the record instead of a round
 * trip after it. For the mail path the check only reads (no break-glass audit: require-sso.ts), and
 * it reads the same for every address of a domain, so starting it before the code is known tells
 * nothing and changes nothing; its SSO_REQUIRED is answered only where it was before — after a right
 * code — and dropped unseen otherwise.
 */
export function readSsoPolicyEarly(
  auth: AuthContext,
  email: string,
  request: SessionRequest,
): Promise<DomainPolicy> {
  const check = assertSignInWithoutSso(auth, { email }, "mail", request);
  check.catch(() => undefined);
  return check;
}

async function signUpMailboxOwner(
  auth: AuthContext,
  record: MailedRecord,
  name: string | undefined,
  policy: DomainPolicy,
): Promise<UserDoc | "raced" | "refused"> {
  const created = await createUser(auth, {
    email: record.email,
    name: name ?? record.name ?? "",
    image: null,
    // The mailbox is proven by the very link or code that signs up.
    emailVerified: true,
    ...(record.language === null ? {} : { language: record.language }),
  });
  if (!created.ok) return created.reason === "exists" ? "raced" : "refused";
  await created.runAfterHooks();
  // A new user holds no provider account to drop: only auto-join follows the proof, on the domain
  // policy the require-SSO check already read.
  await joinVerifiedDomainOrganization(auth, created.user, policy);
  return created.user;
}

/**
 * An unverified account proves nothing about who holds its mailbox: whoever registered the address
 * first may not own it (a pre-registered account, docs/security.md). When the owner proves the
 * mailbox by link or code, what the account gathered before goes — its sessions (and what they
 * minted), its password, its two-factor enrollment (secret, backup codes, trusted devices), passkeys
 * registered and provider identities linked while it was unproven — and the address becomes verified, so the owner inherits nothing a stranger could still use. Null
 * when the user changed meanwhile.
 */
async function takeOverUnprovenAccount(auth: AuthContext, user: UserDoc): Promise<UserDoc | null> {
  // The ways in go before the sessions, so that none of them mints a session in between.
  await removeUnprovenPasskeys(auth, user._id);
  await deleteCredentialAccount(auth.collections, user._id);
  // Before the session gate reads the flag: the stranger's factor must not challenge the owner.
  const unenrolled = await removeTwoFactorEnrollment(auth, user);
  await signOutEverywhere(auth, user._id);
  if (!unenrolled) return null;
  return markMailboxProven(auth, unenrolled);
}
