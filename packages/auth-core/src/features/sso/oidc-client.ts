import type { AuthContext } from "../../context.ts";
import { decryptString } from "../../crypto/index.ts";
import type { SsoOidcConfigDoc, SsoProviderDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { createOutboundFetch, OutboundError } from "../../http/outbound.ts";
import {
  type ClientConfig,
  createIdTokenVerifier,
  endpointsFromDiscovery,
  fetchProvider,
  type ProviderDeps,
  ProviderError,
} from "../social/index.ts";
import { DEFAULT_OIDC_SCOPES, ID_TOKEN_MAX_AGE_SECONDS, isJwksOnIssuerHost } from "./rules.ts";
import type { ClaimsVerifier } from "./verifier-cache.ts";

/**
 * An OIDC connection's client: discovery and key checks for registration and "test this connection",
 * and the code exchange and id-token verifier of a sign-in. Every call to the IdP goes through the
 * outbound guard (http/outbound.ts): the URLs are the customer's (docs/security.md "Single sign-on").
 */

export type EndpointsRefusal =
  | "SSO_URL_NOT_ALLOWED"
  | "SSO_DISCOVERY_FAILED"
  | "SSO_DISCOVERY_INVALID"
  | "SSO_JWKS_HOST_MISMATCH";

export type OidcEndpoints = Pick<
  SsoOidcConfigDoc,
  | "authorizationEndpoint"
  | "tokenEndpoint"
  | "userInfoEndpoint"
  | "jwksEndpoint"
  | "tokenEndpointAuthentication"
>;

/** The IdP calls of this instance: through the outbound guard, bounded like every provider call. */
function idpDeps(auth: AuthContext): ProviderDeps {
  const { allowPrivateAddresses, resolveHost } = auth.options.outbound;
  return {
    fetch: createOutboundFetch({
      allowPrivateAddresses,
      ...(resolveHost ? { resolveHost } : {}),
      timeoutMs: auth.options.advanced.providerTimeoutMs,
    }) as typeof fetch,
    now: auth.now,
    timeoutMs: auth.options.advanced.providerTimeoutMs,
  };
}

/** An outbound refusal of the address itself (not a failure of a reachable host). */
function isAddressRefusal(error: unknown): boolean {
  const cause = error instanceof ProviderError ? error.cause : error;
  return (
    cause instanceof OutboundError &&
    (cause.reason === "invalid_url" || cause.reason === "not_https" || cause.reason === "private_address")
  );
}

/**
 * The endpoints of the discovery document at `discoveryUrl`, checked: its `issuer` is the
 * connection's (OIDC Discovery §4.3), it names the authorization, token and JWKS endpoints, and the
 * JWKS is on the issuer's host.
 */
export async function discoverOidcEndpoints(
  auth: AuthContext,
  discoveryUrl: string,
  issuer: string,
): Promise<Outcome<OidcEndpoints, EndpointsRefusal>> {
  let document: unknown;
  try {
    document = await fetchProvider(idpDeps(auth), discoveryUrl);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return refused(isAddressRefusal(error) ? "SSO_URL_NOT_ALLOWED" : "SSO_DISCOVERY_FAILED");
  }
  let found: ReturnType<typeof endpointsFromDiscovery>;
  try {
    found = endpointsFromDiscovery(document, discoveryUrl, issuer);
  } catch (error) {
    if (error instanceof ProviderError) return refused("SSO_DISCOVERY_INVALID");
    throw error;
  }
  const { authorization, token, userInfo, jwks } = found.endpoints;
  if (!jwks) return refused("SSO_DISCOVERY_INVALID");
  if (!isJwksOnIssuerHost(jwks, issuer)) return refused("SSO_JWKS_HOST_MISMATCH");
  return granted({
    authorizationEndpoint: authorization,
    tokenEndpoint: token,
    userInfoEndpoint: userInfo ?? null,
    jwksEndpoint: jwks,
    tokenEndpointAuthentication: found.clientAuth === "body" ? "client_secret_post" : "client_secret_basic",
  });
}

/** True when the key set answers and holds a signing key: what "test this connection" checks of it. */
export async function checkSigningKeys(
  auth: AuthContext,
  jwksUrl: string,
): Promise<Outcome<void, "SSO_URL_NOT_ALLOWED" | "SSO_JWKS_UNUSABLE">> {
  let body: unknown;
  try {
    body = await fetchProvider(idpDeps(auth), jwksUrl);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return refused(isAddressRefusal(error) ? "SSO_URL_NOT_ALLOWED" : "SSO_JWKS_UNUSABLE");
  }
  const keys = (body as { keys?: unknown } | null)?.keys;
  const usable =
    Array.isArray(keys) &&
    keys.some(
      (key: { kty?: unknown; use?: unknown }) =>
        ["RSA", "EC", "OKP"].includes(String(key?.kty)) && key?.use !== "enc",
    );
  return usable ? granted(undefined) : refused("SSO_JWKS_UNUSABLE");
}

/** The client of the authorization-code flow; null when the stored secret cannot be opened (another app secret). */
export function oidcClientOf(auth: AuthContext, provider: SsoProviderDoc): ClientConfig | null {
  const config = provider.oidcConfig;
  if (!config) return null;
  const clientSecret = openClientSecret(auth, config.clientSecret);
  if (clientSecret === null) return null;
  return {
    options: {
      clientId: config.clientId,
      clientSecret,
      disableDefaultScope: false,
      disableSignUp: false,
      disableImplicitSignUp: false,
      enableIdTokenSignIn: false,
    },
    deps: idpDeps(auth),
    endpoints: {
      authorization: config.authorizationEndpoint,
      token: config.tokenEndpoint,
      ...(config.userInfoEndpoint ? { userInfo: config.userInfoEndpoint } : {}),
      jwks: config.jwksEndpoint,
      issuer: provider.issuer,
    },
    defaultScopes: config.scopes.length > 0 ? config.scopes : DEFAULT_OIDC_SCOPES,
    pkce: config.pkce,
    clientAuth: config.tokenEndpointAuthentication === "client_secret_post" ? "body" : "basic",
    loginHint: true,
    nonce: true,
  };
}

/** Cached verifiers and opened secrets are dropped beyond this many connections each (oldest first). */
const MAX_CACHED_VERIFIERS = 500;

/** Adds `key` to a bounded cache, dropping the oldest entry past MAX_CACHED_VERIFIERS. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > MAX_CACHED_VERIFIERS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
}

/**
 * The connection's client secret, opened once per instance and envelope (verifier-cache.ts): the
 * app secret that opens it stays in this process's memory anyway. Null (not cached) when it does
 * not open with this app secret.
 */
function openClientSecret(auth: AuthContext, sealed: string): string | null {
  const cache = auth.ssoVerifiers.clientSecrets;
  const cached = cache.get(sealed);
  if (cached !== undefined) return cached;
  const opened = decryptString(sealed, auth.options.secret);
  if (opened !== null) remember(cache, sealed, opened);
  return opened;
}

/**
 * The connection's id-token checks (providers/id-token.ts): signature against the issuer-hosted JWKS
 * with asymmetric algorithms only, `iss`, `aud` = client id, `exp`, `iat` within
 * ID_TOKEN_MAX_AGE_SECONDS, and the flow's nonce. Null when the JWKS is not on the issuer's host.
 */
export function idTokenVerifierOf(auth: AuthContext, provider: SsoProviderDoc): ClaimsVerifier | null {
  const config = provider.oidcConfig;
  if (!config || !isJwksOnIssuerHost(config.jwksEndpoint, provider.issuer)) return null;
  const cache = auth.ssoVerifiers.verifiers;
  const stamp = provider.updatedAt.getTime();
  const cached = cache.get(provider.providerId);
  if (cached && cached.stamp === stamp) return cached.verify;
  const verify = createIdTokenVerifier<Record<string, unknown>>({
    deps: idpDeps(auth),
    jwksUrl: config.jwksEndpoint,
    issuer: [provider.issuer],
    audiences: [config.clientId],
    toProfile: (claims) => claims,
    echoesNonce: true,
    maxTokenAgeSeconds: ID_TOKEN_MAX_AGE_SECONDS,
  });
  remember(cache, provider.providerId, { stamp, verify });
  return verify;
}
