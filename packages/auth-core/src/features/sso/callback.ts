import { z } from "zod";
import type { AuthContext } from "../../context.ts";
import type { SsoProviderDoc } from "../../db/documents.ts";
import { ERROR_CATALOGUE, type ErrorCode } from "../../errors/catalogue.ts";
import { findOrganization } from "../organization/index.ts";
import {
  consumeOAuthState,
  exchangeAuthorizationCode,
  fetchUserInfo,
  ProviderError,
  type ProviderTokens,
  withErrorQuery,
} from "../social/index.ts";
import { type SsoRequest, signInSsoUser } from "./jit.ts";
import { idTokenVerifierOf, oidcClientOf } from "./oidc-client.ts";
import { type MappedIdentity, mapOidcClaims } from "./rules.ts";
import { oidcRedirectURI } from "./service.ts";
import { ssoStateProviderId } from "./sign-in.ts";
import * as store from "./store.ts";

/**
 * GET /sso/callback/{providerId}: the IdP's return (OIDC Core §3.1.2.5). Code → tokens → id-token
 * checks (oidc-client.ts) → user → session (jit.ts). Always a redirect: to the flow's
 * callbackURL (newUserCallbackURL for a new user) on success; on failure to its errorCallbackURL,
 * or the /error page, with the catalogue code as `error` and its message as `error_description`.
 * Failures before the state is established always go to the /error page: nothing a stranger chose.
 */

const callbackQuerySchema = z.object({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(256).optional(),
  error: z.string().min(1).max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

/** Leaves the flow for its error redirect; never escapes completeSsoCallback. */
class SsoFailure extends Error {
  constructor(readonly code: ErrorCode) {
    super(code);
  }
}

function failureURL(base: string, code: ErrorCode): string {
  return withErrorQuery(base, code, ERROR_CATALOGUE[code].message);
}

export async function completeSsoCallback(
  auth: AuthContext,
  request: SsoRequest,
  providerId: string,
  raw: Record<string, unknown>,
): Promise<string> {
  const errorPage = `${auth.apiURL}/error`;
  const parsed = callbackQuerySchema.safeParse(raw);
  if (!parsed.success || !parsed.data.state) return failureURL(errorPage, "SSO_STATE_INVALID");
  const params = parsed.data;
  // The connection and its organization are read beside the state's use (reads only, of the
  // connection the path names: two round trips fewer), and looked at only once the state holds.
  const live = findLiveConnection(auth, providerId);
  live.catch(() => undefined);
  // One use, this browser only (the state cookie), and for this connection only (mix-up).
  const check = await consumeOAuthState(auth, request.cookies, params.state!);
  if (!check.ok || check.data.providerId !== ssoStateProviderId(providerId))
    return failureURL(errorPage, "SSO_STATE_INVALID");
  const state = check.data;
  const errorURL = state.errorURL ?? errorPage;
  try {
    if (params.error) throw new SsoFailure("SSO_IDP_ERROR");
    if (!params.code) throw new SsoFailure("SSO_IDP_ERROR");
    const provider = await live;
    if (!provider?.oidcConfig) throw new SsoFailure("SSO_PROVIDER_NOT_FOUND");
    if (!provider.enabled) throw new SsoFailure("SSO_PROVIDER_DISABLED");
    const identity = await fetchIdentity(auth, provider, params.code, state);
    const signedIn = await signInSsoUser(auth, request, provider, identity, {
      tokens: identity.tokens,
      language: state.language,
    });
    if (!signedIn.ok) throw new SsoFailure(signedIn.code);
    const callbackURL =
      state.callbackURL ?? (auth.options.baseURL ? `${new URL(auth.options.baseURL).origin}/` : "/");
    const destination = signedIn.value.isNewUser ? (state.newUserURL ?? callbackURL) : callbackURL;
    return signedIn.value.twoFactorURL?.(destination) ?? destination;
  } catch (error) {
    if (error instanceof SsoFailure) return failureURL(errorURL, error.code);
    throw error;
  }
}

/** The connection, null when it is missing or its organization is gone (its cascade does not reach features/sso). */
async function findLiveConnection(auth: AuthContext, providerId: string): Promise<SsoProviderDoc | null> {
  const provider = await store.findSsoProviderRecent(auth.collections, providerId);
  return provider && (await findOrganization(auth, provider.organizationId)) ? provider : null;
}

/** A call to the IdP: its refusal is SSO_IDP_ERROR, an unreachable IdP SSO_IDP_UNAVAILABLE (logged). */
async function callIdp<T>(auth: AuthContext, provider: SsoProviderDoc, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    auth.options.logger.warn(`SSO sign-in through ${provider.providerId} failed`, error.message);
    throw new SsoFailure(error.providerError ? "SSO_IDP_ERROR" : "SSO_IDP_UNAVAILABLE");
  }
}

interface SsoIdentity extends MappedIdentity {
  id: string;
  tokens: ProviderTokens;
}

/**
 * Exchanges the code (with the PKCE verifier) and checks the id token (OIDC Core §3.1.3.7); claims
 * the userinfo endpoint adds are taken only for the same `sub` (§5.3.2).
 */
async function fetchIdentity(
  auth: AuthContext,
  provider: SsoProviderDoc,
  code: string,
  state: { codeVerifier: string; nonce: string | null },
): Promise<SsoIdentity> {
  const client = oidcClientOf(auth, provider);
  const verify = idTokenVerifierOf(auth, provider);
  if (!client || !verify || state.nonce === null) throw new SsoFailure("SSO_IDP_UNAVAILABLE");
  const tokens = await callIdp(auth, provider, () =>
    exchangeAuthorizationCode(client, {
      code,
      codeVerifier: state.codeVerifier,
      redirectURI: oidcRedirectURI(auth, provider.providerId),
    }),
  );
  const idToken = tokens.idToken;
  if (!idToken) throw new SsoFailure("SSO_TOKEN_INVALID");
  const nonce = state.nonce;
  const check = await callIdp(auth, provider, () => verify(idToken, nonce));
  if (!check.ok) {
    auth.options.logger.warn(`SSO id token from ${provider.providerId} refused`, check.reason);
    throw new SsoFailure("SSO_TOKEN_INVALID");
  }
  const claims = check.profile;
  const info = provider.oidcConfig?.userInfoEndpoint
    ? ((await fetchUserInfo(client, provider.oidcConfig.userInfoEndpoint, tokens)) as Record<
        string,
        unknown
      > | null)
    : null;
  const merged = info && info.sub === claims.sub ? { ...info, ...claims } : claims;
  const mapped = mapOidcClaims(merged, provider.mapping);
  if (mapped.id === null) throw new SsoFailure("SSO_TOKEN_INVALID");
  if (mapped.email === null) throw new SsoFailure("SSO_EMAIL_MISSING");
  return { ...mapped, id: mapped.id, tokens };
}
