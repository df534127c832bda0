import type { UserDoc } from "../../db/documents.ts";

/** social sign-in state lives 10 minutes, 32 chars; PKCE verifier 128 chars. */
export const STATE_LIFETIME_SECONDS = 600;
export const STATE_LENGTH = 32;
export const CODE_VERIFIER_LENGTH = 128;
/** RFC 7636 §4.1: the verifier alphabet is the unreserved characters. */
export const CODE_VERIFIER_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
/** an access token is refreshed first when it expires in under 5 s. */
const ACCESS_TOKEN_REFRESH_THRESHOLD_MS = 5000;

/**
 * The callback's redirect error codes (the error catalogue "Callback redirect error codes"; the spaced ones
 * written with underscores, as Better Auth sends them) plus the state outcomes of docs/decisions/ and the
 * browser-binding failure (matrix H1/H4).
 */
export type CallbackErrorCode =
  | "invalid_callback_request"
  | "state_not_found"
  | "state_mismatch"
  | "please_restart_the_process"
  | "no_code"
  | "oauth_provider_not_found"
  | "invalid_code"
  | "unable_to_get_user_info"
  | "email_not_found"
  | "no_callback_url"
  | "unable_to_link_account"
  | "account_already_linked_to_different_user"
  | "account_not_linked"
  | "signup_disabled"
  | "unable_to_create_user"
  | "unable_to_create_session"
  /** The user is banned (features/admin); the ban message itself is not put in a URL. */
  | "banned"
  /** The address's verified domain requires its organization's SSO (features/sso-domains). */
  | "sso_required";

/** What the flow knows when a provider identity arrives for an email that already has a user. */
export interface LinkDecisionInput {
  linkingEnabled: boolean;
  /** The provider is in `account.accountLinking.trustedProviders`. */
  providerTrusted: boolean;
  /** The provider says it verified the email. */
  providerEmailVerified: boolean;
  existingUser: Pick<UserDoc, "emailVerified">;
}

/**
 * an existing user gets a provider account linked only when linking is on and the provider
 * is trusted or reports the email verified. One more condition (matrix H9, CVE-2026-53516
 * "pre-hijack"): the local user's own email must be verified — otherwise whoever registered the
 * address with a password, without ever proving it, would share the account with its real owner.
 * That owner can verify the address (or reset the password) and sign in again, or link from a
 * signed-in session.
 */
export function canLinkByEmail(input: LinkDecisionInput): boolean {
  if (!input.linkingEnabled) return false;
  if (!input.providerTrusted && !input.providerEmailVerified) return false;
  return input.existingUser.emailVerified;
}

export interface SignUpDecisionInput {
  /** The provider's `disableSignUp`. */
  signUpDisabled: boolean;
  /** The provider's `disableImplicitSignUp`. */
  implicitSignUpDisabled: boolean;
  /** The request's `requestSignUp`. */
  requestSignUp: boolean;
}

/** a new user is created unless sign-up is disabled (implicitly: unless asked for). */
export function canSignUp(input: SignUpDecisionInput): boolean {
  if (input.signUpDisabled) return false;
  return !input.implicitSignUpDisabled || input.requestSignUp;
}

/** /link-social: the provider's email must be vouched for, and equal the user's unless allowed. */
export function canLinkToSignedInUser(input: {
  linkingEnabled: boolean;
  providerTrusted: boolean;
  providerEmailVerified: boolean;
  allowDifferentEmails: boolean;
  userEmail: string;
  providerEmail: string | null;
}): boolean {
  if (!input.linkingEnabled) return false;
  if (!input.providerTrusted && !input.providerEmailVerified) return false;
  return input.allowDifferentEmails || input.providerEmail === input.userEmail;
}

/** refresh first when the access token expires in under 5 s (unknown expiry: never). */
export function shouldRefreshAccessToken(expiresAt: Date | null, now: Date): boolean {
  if (!expiresAt) return false;
  return expiresAt.getTime() - now.getTime() < ACCESS_TOKEN_REFRESH_THRESHOLD_MS;
}

/** `base` with `error` (and `error_description`) added to its query, keeping what it had. */
export function withErrorQuery(base: string, error: string, description?: string | null): string {
  const params = new URLSearchParams({ error });
  if (description) params.set("error_description", description);
  const hashAt = base.indexOf("#");
  const path = hashAt === -1 ? base : base.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : base.slice(hashAt);
  return `${path}${path.includes("?") ? "&" : "?"}${params.toString()}${hash}`;
}

/** an account's scope is stored comma separated. */
export function joinScopes(scopes: readonly string[]): string | null {
  const unique = [...new Set(scopes.map((scope) => scope.trim()).filter(Boolean))];
  return unique.length > 0 ? unique.join(",") : null;
}

export function splitScopes(scope: string | null): string[] {
  if (!scope) return [];
  return scope
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}
