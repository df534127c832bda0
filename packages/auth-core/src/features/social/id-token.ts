import type { AuthContext } from "../../context.ts";
import type { IdTokenSignInResult } from "../../contracts/social-models.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { toUser } from "../session/index.ts";
import type { TwoFactorRedirect } from "../two-factor/index.ts";
import { providerSettings } from "./provider-access.ts";
import type { OAuthProvider, ProviderProfile, ProviderTokens } from "./providers/types.ts";
import type { CallbackErrorCode } from "./rules.ts";
import type { IdTokenInput } from "./schemas.ts";
import { type SocialRequest, signInSocialUser, socialSignUpGuard } from "./service.ts";
import {
  type LinkTarget,
  linkSocialAccount,
  resolveSocialUser,
  type SocialIdentity,
} from "./sign-in-outcome.ts";

/** The JSON errors of the callback outcomes, for flows that answer instead of redirecting. */
const OUTCOME_ERRORS: Record<CallbackErrorCode, ErrorCode> = {
  invalid_callback_request: "INVALID_ID_TOKEN",
  state_not_found: "INVALID_ID_TOKEN",
  state_mismatch: "INVALID_ID_TOKEN",
  please_restart_the_process: "INVALID_ID_TOKEN",
  no_code: "INVALID_ID_TOKEN",
  oauth_provider_not_found: "PROVIDER_NOT_FOUND",
  invalid_code: "INVALID_ID_TOKEN",
  unable_to_get_user_info: "FAILED_TO_GET_USER_INFO",
  email_not_found: "USER_EMAIL_NOT_FOUND",
  no_callback_url: "CALLBACK_URL_REQUIRED",
  unable_to_link_account: "LINKING_NOT_ALLOWED",
  account_already_linked_to_different_user: "ACCOUNT_ALREADY_LINKED_TO_DIFFERENT_USER",
  account_not_linked: "LINKING_NOT_ALLOWED",
  signup_disabled: "SIGNUP_DISABLED",
  unable_to_create_user: "UNABLE_TO_CREATE_USER",
  unable_to_create_session: "FAILED_TO_CREATE_SESSION",
  banned: "BANNED_USER",
  sso_required: "SSO_REQUIRED",
};

/**
 * Verifies a client-supplied id token with the provider (signature against its JWKS, issuer,
 * audience, expiry, nonce: matrix H7). Every refusal is the same 401 "invalid token": the reason
 * helps nobody but an attacker probing the checks.
 */
async function verifiedIdentity(
  provider: OAuthProvider,
  input: IdTokenInput,
): Promise<Outcome<SocialIdentity, "ID_TOKEN_NOT_SUPPORTED" | "INVALID_ID_TOKEN">> {
  if (!provider.verifyIdToken) return refused("ID_TOKEN_NOT_SUPPORTED");
  const check = await provider.verifyIdToken(input.token, input.nonce);
  if (!check.ok) return refused("INVALID_ID_TOKEN");
  return granted({ providerId: provider.id, profile: check.profile, tokens: idTokenTokens(input) });
}

function idTokenTokens(input: IdTokenInput): ProviderTokens {
  return {
    accessToken: input.accessToken ?? null,
    refreshToken: input.refreshToken ?? null,
    idToken: input.token,
    accessTokenExpiresAt: input.expiresAt === undefined ? null : new Date(input.expiresAt),
    refreshTokenExpiresAt: null,
    scopes: [],
    tokenType: null,
  };
}

function isIdTokenSignInEnabled(auth: AuthContext, provider: OAuthProvider): boolean {
  return !(
    providerSettings(auth, provider.id)?.enableIdTokenSignIn === false ||
    !provider.verifyIdToken ||
    provider.acceptsClientIdTokens === false
  );
}

/**
 * the endpoint reference (docs/reference.md) /sign-in/social with `idToken`: creates or links the user like the
 * callback, then a session. Refusals are values (BANNED_USER among them: the endpoint gives it
 * `admin.bannedUserMessage`).
 */
export async function signInWithIdToken(
  auth: AuthContext,
  request: SocialRequest,
  provider: OAuthProvider,
  input: {
    idToken: IdTokenInput;
    requestSignUp: boolean;
    callbackURL: string | undefined;
    /** A new user's language (sign-in/social `language`). */
    language?: string | undefined;
  },
): Promise<Outcome<IdTokenSignInResult | TwoFactorRedirect>> {
  if (!isIdTokenSignInEnabled(auth, provider)) return refused("ID_TOKEN_NOT_SUPPORTED");
  const verified = await verifiedIdentity(provider, input.idToken);
  if (!verified.ok) return verified;
  const identity = verified.value;
  const settings = providerSettings(auth, provider.id);
  const outcome = await resolveSocialUser(auth, identity, {
    disabled: settings?.disableSignUp ?? false,
    implicitDisabled: settings?.disableImplicitSignUp ?? false,
    requested: input.requestSignUp,
    language: input.language ?? null,
    beforeCreate: socialSignUpGuard(auth, request),
  });
  if (!outcome.ok) return refused(OUTCOME_ERRORS[outcome.error]);
  const minted = await signInSocialUser(auth, request, outcome);
  if (minted.kind === "banned") return refused("BANNED_USER");
  // A two-factor user answers like sign-in/email: the challenge, no token (docs/decisions/).
  if (minted.kind === "challenge") return granted(minted.answer);
  return granted({
    redirect: false,
    token: minted.session.token,
    url: input.callbackURL ?? null,
    user: toUser(minted.user),
  });
}

/**
 * the token must verify, and its email must match the user's unless
 * different emails are allowed.
 */
export async function linkWithIdToken(
  auth: AuthContext,
  provider: OAuthProvider,
  target: LinkTarget,
  idToken: IdTokenInput,
): Promise<Outcome<void>> {
  if (!isIdTokenSignInEnabled(auth, provider)) return refused("ID_TOKEN_NOT_SUPPORTED");
  const verified = await verifiedIdentity(provider, idToken);
  if (!verified.ok) return verified;
  const identity = verified.value;
  if (!hasAllowedEmail(auth, target.email, identity.profile))
    return refused("LINKING_DIFFERENT_EMAILS_NOT_ALLOWED");
  const linked = await linkSocialAccount(auth, target, identity);
  if (!linked.ok) return refused(OUTCOME_ERRORS[linked.error]);
  return granted(undefined);
}

function hasAllowedEmail(auth: AuthContext, userEmail: string, profile: ProviderProfile): boolean {
  if (auth.options.account.accountLinking.allowDifferentEmails) return true;
  return profile.email?.trim().toLowerCase() === userEmail;
}
