import { z } from "zod";
import type { ProviderProfile } from "../../../contracts/social-models.ts";
import { CREDENTIAL_PROVIDER_ID } from "../../../db/documents.ts";

/**
 * The contract between the social sign-in flow (features/social/*) and the providers
 * (features/social/providers/*). The flow never knows a provider's URLs or response shapes;
 * a provider never touches the database, cookies or the session.
 */

/** The 19 providers of docs/decisions.md. */
export const PROVIDER_IDS = [
  "apple",
  "discord",
  "facebook",
  "github",
  "microsoft",
  "google",
  "huggingface",
  "spotify",
  "twitch",
  "twitter",
  "dropbox",
  "kick",
  "linkedin",
  "gitlab",
  "tiktok",
  "reddit",
  "roblox",
  "vk",
  "zoom",
] as const;
export type BuiltInProviderId = (typeof PROVIDER_IDS)[number];

/**
 * Every endpoint a provider may call. Each built-in provider has real defaults; options override
 * any of them (that is how tests point a provider at a local server). Providers use the subset
 * they need; `extra` holds provider-specific endpoints (GitHub's emails call, for example).
 */
export interface ProviderEndpoints {
  authorization: string;
  token: string;
  userInfo?: string;
  /** OIDC: JSON Web Key Set for id-token signatures. */
  jwks?: string;
  /** OIDC: expected `iss` of id tokens. */
  issuer?: string;
  /** Token revocation, where the provider has one. */
  revocation?: string;
  extra?: Record<string, string>;
}

const urlString = z.string().url().max(2048);

export const providerEndpointsOverrideSchema = z
  .object({
    authorization: urlString,
    token: urlString,
    userInfo: urlString,
    jwks: urlString,
    issuer: z.string().min(1).max(2048),
    revocation: urlString,
    extra: z.record(z.string(), urlString),
  })
  .partial()
  .strict();

/** `socialProviders.<id>` in createAuth options. */
export const providerOptionsSchema = z
  .object({
    clientId: z.string().min(1),
    /** Absent for public clients; Apple takes a pre-generated client-secret JWT here. */
    clientSecret: z.string().min(1).optional(),
    /** Extra scopes on top of the provider's defaults. */
    scope: z.array(z.string().min(1)).optional(),
    /** Send only `scope`, not the provider's default scopes. @default false */
    disableDefaultScope: z.boolean().default(false),
    /** Overrides `${baseURL}${basePath}/callback/${id}`. */
    redirectURI: z.string().url().optional(),
    /** `prompt` parameter where the provider supports one (e.g. "select_account"). */
    prompt: z.string().min(1).optional(),
    /** Refuse sign-up through this provider (existing users may still sign in). @default false */
    disableSignUp: z.boolean().default(false),
    /** Sign-up only when the request says `requestSignUp: true`. @default false */
    disableImplicitSignUp: z.boolean().default(false),
    /** Accept id-token sign-in for this provider (OIDC providers only). @default true */
    enableIdTokenSignIn: z.boolean().default(true),
    /** Extra audiences accepted in id tokens (e.g. an iOS app's client id). */
    idTokenAudiences: z.array(z.string().min(1)).optional(),
    endpoints: providerEndpointsOverrideSchema.optional(),
    /**
     * Microsoft only: the Entra tenant (a tenant id or domain, or "common", "organizations",
     * "consumers"). Multi-tenant values accept the tenants they name (`iss` must name the token's
     * `tid`; "organizations" refuses personal accounts, "consumers" admits only them). With a domain,
     * id-token sign-in is refused (a token names its tenant by id only): set the tenant id for it.
     * @default "common"
     */
    tenantId: z
      .string()
      .regex(/^[A-Za-z0-9.-]{1,100}$/)
      .optional(),
  })
  .strict();
export type ProviderOptions = z.output<typeof providerOptionsSchema>;

/** A generic OAuth2/OIDC provider: by discovery URL or by explicit endpoints. */
export const genericProviderOptionsSchema = providerOptionsSchema
  .extend({
    providerId: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/)
      .refine((id) => !(PROVIDER_IDS as readonly string[]).includes(id), "clashes with a built-in provider")
      // The email-and-password account's providerId: a provider by that name would sign in as, read
      // the tokens of, or unlink users' password accounts (accounts are keyed on providerId).
      .refine((id) => id !== CREDENTIAL_PROVIDER_ID, `"${CREDENTIAL_PROVIDER_ID}" is reserved`),
    name: z.string().min(1).optional(),
    /** OIDC discovery document (`…/.well-known/openid-configuration`). */
    discoveryUrl: z.string().url().optional(),
    /** Scopes sent by default. @default ["openid", "email", "profile"] */
    defaultScopes: z.array(z.string().min(1)).optional(),
    /** Use PKCE (S256). @default true */
    pkce: z.boolean().default(true),
    /** Does this provider verify the emails it reports? @default false */
    emailsAreVerified: z.boolean().default(false),
  })
  .strict();
export type GenericProviderOptions = z.output<typeof genericProviderOptionsSchema>;

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
  /** PKCE verifier (128 chars, docs/decisions.md); providers without PKCE ignore it. */
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

export type IdTokenCheck =
  | { ok: true; profile: ProviderProfile }
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
