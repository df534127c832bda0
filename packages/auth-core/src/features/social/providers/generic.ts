import { asArray, asId, asRecord, asString, type JsonRecord, profileFromOidcClaims } from "./fields.ts";
import { fetchProvider } from "./http.ts";
import { createIdTokenVerifier, readTokenEndpointIdToken } from "./id-token.ts";
import {
  type ClientConfig,
  createAuthorizationURL,
  exchangeAuthorizationCode,
  fetchUserInfo,
  refreshAccessToken,
} from "./oauth2.ts";
import {
  type GenericProviderOptions,
  type OAuthProvider,
  type ProviderDeps,
  type ProviderEndpoints,
  ProviderError,
  type ProviderProfile,
  type ProviderTokens,
} from "./types.ts";

/**
 * A generic OAuth 2.0 / OpenID Connect provider, configured by a discovery URL (loaded once and
 * cached; explicit `endpoints` win over it) or by explicit endpoints alone. Discovery is checked
 * like RFC 8414 §3.3 / OIDC Discovery §4.3 ask (ASVS 10.5.3): the document's `issuer` must be the
 * configured issuer, or the discovery URL's own prefix.
 */

const DEFAULT_SCOPES = ["openid", "email", "profile"];
const WELL_KNOWN = /\/\.well-known\/openid-configuration$/;

interface Resolved {
  client: ClientConfig;
  verifyIdToken: NonNullable<OAuthProvider["verifyIdToken"]> | null;
}

/** Throws ProviderError when the document names another issuer or lacks the authorization or token endpoint. */
export function endpointsFromDiscovery(
  document: unknown,
  discoveryUrl: string,
  expectedIssuer: string | undefined,
) {
  const doc = asRecord(document);
  const issuer = asString(doc?.issuer);
  const expected = expectedIssuer ?? discoveryUrl.replace(WELL_KNOWN, "");
  if (!doc || issuer !== expected)
    throw new ProviderError(`discovery issuer ${String(issuer)} is not ${expected}`);
  const authorization = asString(doc.authorization_endpoint);
  const token = asString(doc.token_endpoint);
  if (!authorization || !token)
    throw new ProviderError("discovery document without authorization or token endpoint");
  const endpoints: ProviderEndpoints = { authorization, token, issuer };
  const optional = {
    userInfo: doc.userinfo_endpoint,
    jwks: doc.jwks_uri,
    revocation: doc.revocation_endpoint,
  };
  for (const [key, value] of Object.entries(optional)) {
    const url = asString(value);
    if (url) endpoints[key as keyof typeof optional] = url;
  }
  const methods = asArray(doc.token_endpoint_auth_methods_supported);
  // RFC 8414 §2: absent means client_secret_basic only.
  const clientAuth: "basic" | "body" =
    methods.length > 0 && methods.includes("client_secret_post") ? "body" : "basic";
  return { endpoints, clientAuth };
}

function mapGenericProfile(
  info: JsonRecord | null,
  idClaims: JsonRecord | null,
  emailsAreVerified: boolean,
): ProviderProfile | null {
  // OIDC Core §5.3.2: a userinfo `sub` that differs from the id token's is a substituted response.
  const infoSub = asId(info?.sub);
  const idSub = asId(idClaims?.sub);
  if (infoSub !== null && idSub !== null && infoSub !== idSub) return null;
  const claims = { ...idClaims, ...info };
  const subject = asId(claims.sub) ?? asId(claims.id);
  const profile = profileFromOidcClaims(subject === null ? null : { ...claims, sub: subject });
  if (!profile) return null;
  return {
    ...profile,
    emailVerified: profile.emailVerified || (emailsAreVerified && profile.email !== null),
  };
}

/** The client (and id-token verifier) of a generic provider once its endpoints are known; explicit ones win. */
function resolveClient(
  options: GenericProviderOptions,
  deps: ProviderDeps,
  endpoints: ProviderEndpoints,
  clientAuth: "basic" | "body",
): Resolved {
  const explicit = options.endpoints ?? {};
  const client: ClientConfig = {
    options,
    deps,
    endpoints: { ...endpoints, ...explicit, extra: { ...explicit.extra } },
    defaultScopes: options.defaultScopes ?? DEFAULT_SCOPES,
    pkce: options.pkce,
    clientAuth,
    loginHint: true,
    nonce: true,
  };
  const { jwks, issuer } = client.endpoints;
  if (!options.enableIdTokenSignIn || !jwks || !issuer) return { client, verifyIdToken: null };
  const verifyIdToken = createIdTokenVerifier({
    deps,
    jwksUrl: jwks,
    issuer: [issuer],
    audiences: [options.clientId, ...(options.idTokenAudiences ?? [])],
    toProfile: (claims) => mapGenericProfile(null, claims, options.emailsAreVerified),
    // OIDC Core §3.1.3.7 (11) makes echoing the nonce mandatory for a conforming provider.
    echoesNonce: true,
  });
  return { client, verifyIdToken };
}

/**
 * Resolves the provider's endpoints: at once for explicit endpoints (credentials in the form body,
 * which RFC 6749 §2.3.1 allows and every server we know accepts), or from the discovery document,
 * fetched once at a time and cached; a failed fetch is forgotten so the next request retries.
 */
function createClientLoader(options: GenericProviderOptions, deps: ProviderDeps) {
  const discoveryUrl = options.discoveryUrl;
  let resolved: Resolved | null = discoveryUrl
    ? null
    : resolveClient(options, deps, { authorization: "", token: "" }, "body");
  let loading: Promise<Resolved> | null = null;
  return {
    current: () => resolved,
    load: async (): Promise<Resolved> => {
      if (resolved) return resolved;
      loading ??= fetchProvider(deps, discoveryUrl ?? "")
        .then((document) => {
          const found = endpointsFromDiscovery(document, discoveryUrl ?? "", options.endpoints?.issuer);
          resolved = resolveClient(options, deps, found.endpoints, found.clientAuth);
          return resolved;
        })
        .finally(() => {
          loading = null;
        });
      return loading;
    },
  };
}

export function createGenericProvider(options: GenericProviderOptions, deps: ProviderDeps): OAuthProvider {
  const explicit = options.endpoints ?? {};
  if (!options.discoveryUrl && (!explicit.authorization || !explicit.token)) {
    throw new Error(
      `genericOAuth "${options.providerId}": set discoveryUrl, or endpoints.authorization and endpoints.token`,
    );
  }
  const loader = createClientLoader(options, deps);
  const provider: OAuthProvider = {
    id: options.providerId,
    name: options.name ?? options.providerId,
    responseMode: "query",
    prepare: async () => {
      await loader.load();
    },
    createAuthorizationURL: (input) => {
      const resolved = loader.current();
      if (!resolved)
        throw new ProviderError(`provider ${options.providerId} is not loaded: await prepare() first`);
      return createAuthorizationURL(resolved.client, input);
    },
    exchangeCode: async (input) => exchangeAuthorizationCode((await loader.load()).client, input),
    refreshAccessToken: async (refreshToken) =>
      refreshAccessToken((await loader.load()).client, refreshToken),
    getUserProfile: async (tokens: ProviderTokens): Promise<ProviderProfile | null> => {
      const { client } = await loader.load();
      const info = asRecord(await fetchUserInfo(client, client.endpoints.userInfo, tokens));
      return mapGenericProfile(info, readTokenEndpointIdToken(tokens.idToken), options.emailsAreVerified);
    },
  };
  if (options.enableIdTokenSignIn && (options.discoveryUrl || (explicit.jwks && explicit.issuer))) {
    provider.verifyIdToken = async (idToken, nonce) => {
      const { verifyIdToken } = await loader.load();
      if (!verifyIdToken)
        throw new ProviderError(`provider ${options.providerId} publishes no JWKS or issuer`);
      return verifyIdToken(idToken, nonce);
    };
  }
  return provider;
}
