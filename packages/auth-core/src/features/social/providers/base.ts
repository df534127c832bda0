import type { JWTPayload } from "jose";
import type { JsonRecord } from "./fields.ts";
import { createIdTokenVerifier } from "./id-token.ts";
import {
  type ClientConfig,
  createAuthorizationURL,
  exchangeAuthorizationCode,
  fetchUserInfo,
  refreshAccessToken,
  resolveEndpoints,
} from "./oauth2.ts";
import type {
  CallbackExtras,
  CodeExchangeInput,
  OAuthProvider,
  ProviderDeps,
  ProviderEndpoints,
  ProviderOptions,
  ProviderProfile,
  ProviderTokens,
} from "./types.ts";

/**
 * The one shape every built-in provider file fills in: its real endpoints and scopes, how it wants
 * client credentials, whether it has PKCE / refresh / id tokens, and how its user info maps to a
 * profile. Everything else (URL building, token requests, verification) is shared.
 */
export type ProviderSpec = ProviderSpecCore & ProfileSource;

/** Exactly one way to get the profile. */
type ProfileSource =
  | {
      /**
       * The profile from the user-info endpoint's JSON (fetched with the access token; null when
       * that call fails).
       */
      mapUserInfo: (info: unknown) => ProviderProfile | null;
      getUserProfile?: never;
    }
  | {
      /** For providers that need more than one GET of `endpoints.userInfo` (or none). */
      getUserProfile: (
        client: ClientConfig,
        tokens: ProviderTokens,
        extras: CallbackExtras,
      ) => Promise<ProviderProfile | null>;
      mapUserInfo?: never;
    };

interface ProviderSpecCore {
  id: string;
  name: string;
  endpoints: ProviderEndpoints;
  defaultScopes: string[];
  pkce: boolean;
  clientAuth: "basic" | "body";
  refresh: boolean;
  responseMode?: "query" | "form_post";
  scopeSeparator?: " " | ",";
  clientIdParam?: "client_id" | "client_key";
  authorizationParams?: Record<string, string>;
  loginHint?: boolean;
  /** Extra form fields of the code exchange (VK's device_id). */
  exchangeParams?: (input: CodeExchangeInput) => Record<string, string>;
  /** OIDC providers: how id-token claims map to a profile; the issuer check when it is not the fixed endpoint. */
  idToken?: {
    toProfile(claims: JsonRecord): ProviderProfile | null;
    issuer?: (endpoints: ProviderEndpoints) => (issuer: string, claims: JWTPayload) => boolean;
    /** False for providers that do not document echoing the nonce (see IdTokenVerifierConfig). @default true */
    echoesNonce?: boolean;
    /** False: id tokens are checked in the code flow only, never accepted from a client. @default true */
    acceptsClientTokens?: boolean;
  };
}

export function createProviderFromSpec(
  spec: ProviderSpec,
  options: ProviderOptions,
  deps: ProviderDeps,
): OAuthProvider {
  const endpoints = resolveEndpoints(spec.endpoints, options.endpoints);
  const client: ClientConfig = {
    options,
    deps,
    endpoints,
    defaultScopes: spec.defaultScopes,
    scopeSeparator: spec.scopeSeparator ?? " ",
    clientIdParam: spec.clientIdParam ?? "client_id",
    pkce: spec.pkce,
    clientAuth: spec.clientAuth,
    authorizationParams: spec.authorizationParams ?? {},
    loginHint: spec.loginHint ?? false,
    nonce: spec.idToken !== undefined,
  };
  const provider: OAuthProvider = {
    id: spec.id,
    name: spec.name,
    responseMode: spec.responseMode ?? "query",
    createAuthorizationURL: (input) => createAuthorizationURL(client, input),
    exchangeCode: async (input) =>
      exchangeAuthorizationCode(client, input, spec.exchangeParams?.(input) ?? {}),
    getUserProfile: async (tokens, extras) => {
      if (spec.getUserProfile) return spec.getUserProfile(client, tokens, extras);
      return spec.mapUserInfo(await fetchUserInfo(client, endpoints.userInfo, tokens));
    },
  };
  if (spec.refresh) provider.refreshAccessToken = (refreshToken) => refreshAccessToken(client, refreshToken);
  const verifier = idTokenVerifierFor(spec, options, deps, endpoints);
  if (verifier) provider.verifyIdToken = verifier;
  if (spec.idToken?.acceptsClientTokens === false) provider.acceptsClientIdTokens = false;
  return provider;
}

function idTokenVerifierFor(
  spec: ProviderSpec,
  options: ProviderOptions,
  deps: ProviderDeps,
  endpoints: ProviderEndpoints,
): OAuthProvider["verifyIdToken"] {
  if (!spec.idToken || !options.enableIdTokenSignIn || !endpoints.jwks) return undefined;
  const issuer = spec.idToken.issuer?.(endpoints) ?? (endpoints.issuer ? [endpoints.issuer] : null);
  if (issuer === null) return undefined;
  return createIdTokenVerifier({
    deps,
    jwksUrl: endpoints.jwks,
    issuer,
    audiences: [options.clientId, ...(options.idTokenAudiences ?? [])],
    toProfile: spec.idToken.toProfile,
    echoesNonce: spec.idToken.echoesNonce ?? true,
  });
}
