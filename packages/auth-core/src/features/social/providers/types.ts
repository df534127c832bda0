import type { ProviderProfile } from "../../../contracts/social-models.ts";

/**
 * The contract between the social sign-in flow (features/social/*) and the providers
 * (features/social/providers/*). The flow never knows a provider's URLs or response shapes;
 * a provider never touches the database, cookies or the session.
 */

export {
  type BuiltInProviderId,
  type GenericProviderOptions,
  genericProviderOptionsSchema,
  PROVIDER_IDS,
  type ProviderEndpoints,
  type ProviderOptions,
  providerOptionsSchema,
} from "../../../config/social-provider-options.ts";

/** Tokens as returned by a code exchange or a refresh, normalised. */
export interface ProviderTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
  tokenType: string | null;
}

/** What the provider says about the person: /account-info answers it, so it lives with the contracts. */
export type { ProviderProfile } from "../../../contracts/social-models.ts";

export interface AuthorizationInput {
  state: string;
  /** PKCE verifier (128 chars, docs/decisions/); providers without PKCE ignore it. */
  codeVerifier: string;
  redirectURI: string;
  /** Extra scopes from the request, added to the configured/default scopes. */
  scopes: string[];
  loginHint?: string;
  /** OIDC `nonce`, put in the URL by providers that issue id tokens (the flow checks it in the id token). */
  nonce?: string;
}

export interface CodeExchangeInput {
  code: string;
  codeVerifier: string;
  redirectURI: string;
  /** VK ID passes `device_id` back on the callback and wants it in the token request. */
  deviceId?: string;
}

export interface CallbackExtras {
  /** Apple's one-time `user` form field (JSON with name and email) on the first consent only. */
  user?: unknown;
}

/** `P`: what the verifier's toProfile makes of the claims (features/sso maps them per connection). */
export type IdTokenCheck<P = ProviderProfile> =
  | { ok: true; profile: P }
  | {
      ok: false;
      reason:
        | "invalid_signature"
        | "wrong_audience"
        | "wrong_issuer"
        | "expired"
        | "wrong_nonce"
        | "malformed";
    };

export interface OAuthProvider {
  id: string;
  name: string;
  /**
   * Generic providers configured by discovery URL load their endpoints here (cached); call it before
   * createAuthorizationURL, which throws ProviderError while the discovery document is not loaded.
   * Throws ProviderError when discovery fails. Absent when there is nothing to load.
   */
  prepare?: () => Promise<void>;
  /** Apple answers with a POST form (`response_mode=form_post`). */
  responseMode: "query" | "form_post";
  createAuthorizationURL(input: AuthorizationInput): URL;
  /** Throws ProviderError on any failure (non-2xx, missing access token). */
  exchangeCode(input: CodeExchangeInput): Promise<ProviderTokens>;
  /** Absent when the provider has no refresh grant. Throws ProviderError on failure. */
  refreshAccessToken?: (refreshToken: string) => Promise<ProviderTokens>;
  /** Null when the provider's user-info call fails or returns no id. */
  getUserProfile(tokens: ProviderTokens, extras: CallbackExtras): Promise<ProviderProfile | null>;
  /** Present only for providers that issue OIDC id tokens (and enableIdTokenSignIn). */
  verifyIdToken?: (idToken: string, nonce: string | undefined) => Promise<IdTokenCheck>;
  /**
   * False when verifyIdToken may check the code exchange's own id token but a client-supplied one
   * cannot be tied to the configured audience of users (Microsoft with a tenant domain).
   * @default true
   */
  acceptsClientIdTokens?: boolean;
}

/** What a provider factory gets besides its options: no globals (docs/architecture.md). */
export interface ProviderDeps {
  fetch: typeof fetch;
  now(): Date;
  /** Bound on every call to a provider. @default 10000 */
  timeoutMs?: number;
  /** Minimum gap between JWKS refetches triggered by an unknown `kid` (key rotation). @default 30000 */
  jwksCooldownMs?: number;
}

/** A failed call to a provider: carries what the provider said, never secrets. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly providerError: string | null = null,
    readonly providerErrorDescription: string | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ProviderError";
  }
}
