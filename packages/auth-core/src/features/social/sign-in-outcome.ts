import type { AuthContext } from "../../context.ts";
import { emailField } from "../../contracts/schemas.ts";
import type { AccountDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { isAllowedUserURL } from "../../http/user-urls.ts";
import { applyAfterHook, applyBeforeHook } from "../hooks.ts";
import { type DomainPolicy, joinVerifiedDomainOrganization } from "../sso-domains/index.ts";
import {
  createUser,
  deleteAdminChosenPassword,
  deleteUserById,
  findUserByEmail,
  findUserById,
  updateUser,
} from "../users/index.ts";
import { sealTokens } from "./account-tokens.ts";
import type { ProviderProfile, ProviderTokens } from "./providers/types.ts";
import { type CallbackErrorCode, canLinkByEmail, canLinkToSignedInUser, canSignUp } from "./rules.ts";
import { saveAccountTokens } from "./service.ts";
import { deleteAccountById, findAccountByProviderIdentity, insertAccountIfAbsent } from "./store.ts";
import {
  dropUnprovenProviderAccounts,
  isUnprovenLink,
  type ProviderAccountDoc,
} from "./unproven-accounts.ts";

export type SocialUserResult =
  | { ok: true; user: UserDoc; isNewUser: boolean }
  | { ok: false; error: CallbackErrorCode };

export interface SocialIdentity {
  providerId: string;
  profile: ProviderProfile;
  tokens: ProviderTokens;
  /**
   * When present, decides `profile.emailVerified` (which is then ignored) and is asked only where
   * the answer can change the outcome: not for a returning user whose address is already verified
   * or is not the identity's (SSO: the organization's domain read, features/sso/jit.ts).
   */
  checkEmailVerified?: () => Promise<boolean>;
}

/**
 * How a sign-in may create a user. `language`: a new user's (sign-in/social's `language`); null
 * leaves it unset. `beforeCreate`: runs with the address before a new user is written and may throw
 * (a domain requiring SSO); the domain policy it read goes on to auto-join.
 */
interface SocialSignUp {
  disabled: boolean;
  implicitDisabled: boolean;
  requested: boolean;
  language: string | null;
  beforeCreate?: (email: string) => Promise<DomainPolicy>;
}

/** The identity with `profile.emailVerified` decided (checkEmailVerified asked, at most once). */
async function withEmailVerifiedDecided(identity: SocialIdentity): Promise<SocialIdentity> {
  const { checkEmailVerified, ...decided } = identity;
  if (!checkEmailVerified) return identity;
  return { ...decided, profile: { ...decided.profile, emailVerified: await checkEmailVerified() } };
}

/** The provider's email as Tessera stores emails (trimmed, lower-cased, checked); null when unusable. */
function normalizeProviderEmail(email: string | null): string | null {
  if (email === null) return null;
  const parsed = emailField.safeParse(email);
  return parsed.success ? parsed.data : null;
}

function isTrustedProvider(auth: AuthContext, providerId: string): boolean {
  return auth.options.account.accountLinking.trustedProviders.includes(providerId);
}

/**
 * the user a provider identity signs in as. The account keyed on
 * (providerId, provider account id) wins — never the email, and it needs none: an
 * identity linked from a signed-in session signs in even from a provider that gives no email.
 * Otherwise an existing user with the email gets the account linked only under `canLinkByEmail`;
 * otherwise a new user, unless sign-up is disabled. Both of those need an email (email_not_found).
 */
export async function resolveSocialUser(
  auth: AuthContext,
  identity: SocialIdentity,
  signUp: SocialSignUp,
  retried = false,
): Promise<SocialUserResult> {
  const email = normalizeProviderEmail(identity.profile.email);
  const account = await findAccountByProviderIdentity(
    auth.collections,
    identity.providerId,
    identity.profile.id,
  );
  if (account) {
    const user = await findUserById(auth.collections, account.userId);
    if (user) {
      const current = await refreshSignedInUser(auth, user, account, identity, email);
      return { ok: true, user: current, isNewUser: false };
    }
    // An account left behind by a removed user identifies nobody: drop it and go on as new.
    await deleteAccountById(auth.collections, account._id);
  }
  if (email === null) return { ok: false, error: "email_not_found" };
  return resolveUnlinkedUser(auth, await withEmailVerifiedDecided(identity), email, signUp, retried);
}

/** No account of this identity: an existing user of its address (linked by the rules), or a new one. */
async function resolveUnlinkedUser(
  auth: AuthContext,
  identity: SocialIdentity,
  email: string,
  signUp: SocialSignUp,
  retried: boolean,
): Promise<SocialUserResult> {
  const { providerId, profile } = identity;
  const existing = await findUserByEmail(auth.collections, email);
  if (existing) {
    const linkable = canLinkByEmail({
      linkingEnabled: auth.options.account.accountLinking.enabled,
      providerTrusted: isTrustedProvider(auth, providerId),
      providerEmailVerified: profile.emailVerified,
      existingUser: existing,
    });
    if (!linkable) return { ok: false, error: "account_not_linked" };
    // canLinkByEmail needs the user's address verified: such a link is never an unproven one.
    const linked = await storeProviderAccount(auth, existing._id, identity, false);
    // "taken" by this same user: a concurrent first sign-in of the same person linked it first.
    if (linked === "stored" || (linked === "taken" && (await isIdentityOf(auth, identity, existing._id)))) {
      // The provider proves the address; a password an admin chose for it (create-user,
      // set-user-password) was never the owner's: it goes, rather than wait on the account for the
      // mark that holds it back to be lifted (docs/security.md "An administrator never holds…").
      await deleteAdminChosenPassword(auth.collections, existing._id);
      return { ok: true, user: existing, isNewUser: false };
    }
    return { ok: false, error: "account_not_linked" };
  }
  const allowed = canSignUp({
    signUpDisabled: signUp.disabled,
    implicitSignUpDisabled: signUp.implicitDisabled,
    requestSignUp: signUp.requested,
  });
  if (!allowed) return { ok: false, error: "signup_disabled" };
  const policy = await signUp.beforeCreate?.(email);
  const created = await createSocialUser(auth, identity, email, signUp.language, policy);
  if (created !== "raced") return created;
  // A concurrent first sign-in of the same person won the unique index: once more, as a returning user.
  if (!retried) return resolveSocialUser(auth, identity, signUp, true);
  return { ok: false, error: "unable_to_create_user" };
}

/** A returning user: fresh tokens on the account; a provider-verified matching email marks it verified. */
async function refreshSignedInUser(
  auth: AuthContext,
  user: UserDoc,
  account: AccountDoc,
  identity: SocialIdentity,
  email: string | null,
): Promise<UserDoc> {
  const now = auth.now();
  await saveAccountTokens(auth, account._id, sealTokens(identity.tokens, auth.options.secret, now, account));
  // Only an unverified address that the identity's is can change here: nothing else is asked.
  if (user.emailVerified || email !== user.email) return user;
  const { profile } = await withEmailVerifiedDecided(identity);
  if (!profile.emailVerified) return user;
  const verified = await updateUser(auth, user._id, { emailVerified: true });
  if (!verified) return user;
  // This identity has just proved the mailbox: accounts stored while it was unproven go (H9), and
  // a verified domain with auto-join makes the address a member, as any proof does.
  await dropUnprovenProviderAccounts(auth, user._id, account);
  await joinVerifiedDomainOrganization(auth, verified);
  return verified;
}

/**
 * User first, then its account; a failed account removes the user again (no user without an
 * account). "raced" when a unique index (email, or the provider identity) says another request
 * created them first. The after hooks run once both are stored, user first (never for a rolled-back user).
 */
async function createSocialUser(
  auth: AuthContext,
  identity: SocialIdentity,
  email: string,
  language: string | null,
  policy: DomainPolicy | undefined,
): Promise<SocialUserResult | "raced"> {
  const { profile } = identity;
  const created = await createUser(auth, {
    email,
    name: (profile.name.trim() || email.slice(0, email.indexOf("@"))).slice(0, 256),
    // The provider's picture is shown like one the user typed: the same URL rule (http/user-urls.ts).
    image:
      profile.image && profile.image.length <= 2048 && isAllowedUserURL(auth, profile.image)
        ? profile.image
        : null,
    emailVerified: profile.emailVerified,
    ...(language === null ? {} : { language }),
  });
  if (!created.ok)
    return created.reason === "exists" ? "raced" : { ok: false, error: "unable_to_create_user" };
  const stored = await attachFirstAccount(auth, created.user._id, identity);
  if (stored.result === "taken") return "raced";
  if (stored.result !== "stored") return { ok: false, error: "unable_to_create_user" };
  await created.runAfterHooks();
  await stored.runAfterHooks();
  // The provider proved the address at sign-up: a new user holds no unproven account to drop, so
  // only auto-join follows the proof (features/sso-domains).
  if (profile.emailVerified) await joinVerifiedDomainOrganization(auth, created.user, policy);
  return { ok: true, user: created.user, isNewUser: true };
}

/**
 * The new user's provider account; a failure removes the user again. "taken" by this very user is
 * success: a parallel sign-in of the same person found the new user by email and linked the
 * identity to it first — deleting the user then would strand that sign-in's session (that request
 * ran the account's after hook; this one has none to run).
 */
async function attachFirstAccount(
  auth: AuthContext,
  userId: ObjectId,
  identity: SocialIdentity,
): Promise<InsertedAccount> {
  let stored: InsertedAccount = { result: "refused", runAfterHooks: noHooks };
  try {
    // The new user's address is verified exactly when the provider verified it.
    stored = await insertProviderAccount(auth, userId, identity, !identity.profile.emailVerified);
    if (stored.result === "taken" && (await isIdentityOf(auth, identity, userId)))
      stored = { result: "stored", runAfterHooks: noHooks };
  } finally {
    if (stored.result !== "stored") await deleteUserById(auth.collections, userId);
  }
  return stored;
}

const noHooks = async (): Promise<void> => {};

/** Re-read after losing the unique index: does the identity's account belong to this user? */
async function isIdentityOf(auth: AuthContext, identity: SocialIdentity, userId: ObjectId): Promise<boolean> {
  const { providerId, profile } = identity;
  const account = await findAccountByProviderIdentity(auth.collections, providerId, profile.id);
  return account?.userId.equals(userId) === true;
}

type StoreAccountResult = "stored" | "taken" | "refused";

/**
 * Inserts the provider account of a user (through the account create hooks, tokens encrypted).
 * "taken" when that provider identity already has an account — the unique index decides races.
 * `unproven`: linked while the user's address was unverified, by a provider that did not verify it
 * (unproven-accounts.ts) — such an account goes when the address is proven by mail.
 */
async function storeProviderAccount(
  auth: AuthContext,
  userId: ObjectId,
  identity: SocialIdentity,
  unproven: boolean,
): Promise<StoreAccountResult> {
  const inserted = await insertProviderAccount(auth, userId, identity, unproven);
  await inserted.runAfterHooks();
  return inserted.result;
}

interface InsertedAccount {
  result: StoreAccountResult;
  /** The account create `after` hook, when this call stored the account; the caller runs it. */
  runAfterHooks: () => Promise<void>;
}

async function insertProviderAccount(
  auth: AuthContext,
  userId: ObjectId,
  identity: SocialIdentity,
  unproven: boolean,
): Promise<InsertedAccount> {
  const now = auth.now();
  const hooks = auth.options.hooks?.account?.create;
  const doc = await applyBeforeHook<ProviderAccountDoc>(hooks, {
    _id: new ObjectId(),
    providerId: identity.providerId,
    accountId: identity.profile.id,
    userId,
    password: null,
    ...sealTokens(identity.tokens, auth.options.secret, now),
    createdAt: now,
    updatedAt: now,
    ...(unproven ? { emailUnverifiedAtLink: true as const } : {}),
  });
  if (!doc) return { result: "refused", runAfterHooks: noHooks };
  if (!(await insertAccountIfAbsent(auth.collections, doc)))
    return { result: "taken", runAfterHooks: noHooks };
  return { result: "stored", runAfterHooks: () => applyAfterHook(hooks, doc) };
}

export type LinkResult = { ok: true } | { ok: false; error: CallbackErrorCode };

/** The signed-in user a provider identity is linked to (read from the database, not a cache). */
export interface LinkTarget {
  userId: ObjectId;
  email: string;
  emailVerified: boolean;
}

/**
 * /link-social: attaches a provider identity to the signed-in user (docs/decisions/ "Link by ID token",
 * matrix H12). An identity already linked to another user is never re-parented.
 */
export async function linkSocialAccount(
  auth: AuthContext,
  target: LinkTarget,
  identity: SocialIdentity,
): Promise<LinkResult> {
  const linking = auth.options.account.accountLinking;
  const providerEmail = normalizeProviderEmail(identity.profile.email);
  const allowed = canLinkToSignedInUser({
    linkingEnabled: linking.enabled,
    providerTrusted: isTrustedProvider(auth, identity.providerId),
    providerEmailVerified: identity.profile.emailVerified,
    allowDifferentEmails: linking.allowDifferentEmails,
    userEmail: target.email,
    providerEmail,
  });
  if (!allowed) return { ok: false, error: "unable_to_link_account" };
  const existing = await findAccountByProviderIdentity(
    auth.collections,
    identity.providerId,
    identity.profile.id,
  );
  if (existing && !existing.userId.equals(target.userId))
    return { ok: false, error: "account_already_linked_to_different_user" };
  if (existing) {
    const fields = sealTokens(identity.tokens, auth.options.secret, auth.now(), existing);
    await saveAccountTokens(auth, existing._id, fields);
    return { ok: true };
  }
  const unproven = isUnprovenLink(target, identity.profile, providerEmail);
  const stored = await storeProviderAccount(auth, target.userId, identity, unproven);
  if (stored === "stored") return { ok: true };
  if (stored === "refused") return { ok: false, error: "unable_to_link_account" };
  // Linked concurrently: fine when it was this same user's other request.
  return (await isIdentityOf(auth, identity, target.userId))
    ? { ok: true }
    : { ok: false, error: "account_already_linked_to_different_user" };
}
