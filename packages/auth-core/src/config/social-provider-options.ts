import { z } from "zod";
import { CREDENTIAL_PROVIDER_ID } from "../db/documents.ts";

/**
 * The `socialProviders` and `genericOAuth` options: which providers exist and what each takes. The
 * social feature builds its providers from these (features/social/providers/); they live here, with
 * the other options, so config/ imports no feature.
 */

/** The 19 providers of docs/decisions/. */
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

const providerEndpointsOverrideSchema = z
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
