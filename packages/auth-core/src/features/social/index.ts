/** The face of social: what other features may use. */

/*
 * features/sso's OIDC connections run on the generic OIDC client (discovery, PKCE, nonce, id-token
 * checks against a rotating JWKS), the one-time browser-bound state and flow start, and the user
 * resolution of a provider sign-in: not on a copy of them.
 */
export { twoFactorPageURL } from "./callback-flow.ts";
export { endpointsFromDiscovery } from "./providers/generic.ts";
export { fetchProvider } from "./providers/http.ts";
export { createIdTokenVerifier } from "./providers/id-token.ts";
export {
  type ClientConfig,
  createAuthorizationURL,
  exchangeAuthorizationCode,
  fetchUserInfo,
} from "./providers/oauth2.ts";
export { type ProviderDeps, ProviderError, type ProviderTokens } from "./providers/types.ts";
export { withErrorQuery } from "./rules.ts";
/** Every account of a user, credential included (the admin area's user page); tokens are the caller's to drop. */
export { type FlowStart, listUserAccounts, startAuthorizationFlow } from "./service.ts";
export { resolveSocialUser } from "./sign-in-outcome.ts";
export { consumeOAuthState } from "./state.ts";
export { dropUnprovenProviderAccounts } from "./unproven-accounts.ts";
