import { z } from "zod";
import { defineContract } from "./contract.ts";
import { callbackURLField, languageField } from "./schemas.ts";
import {
  oidcConfigSchema,
  type SsoProvider,
  samlConfigSchema,
  ssoMappingSchema,
  ssoProviderSchema,
} from "./sso-models.ts";

export type { SsoMapping, SsoProvider } from "./sso-models.ts";

/**
 * SSO connections of organizations (features/sso, docs/security.md "Single sign-on"), with the
 * paths, methods and payload names of Better Auth 1.7's @better-auth/sso. Secrets go in, never out.
 */

/** Names the connection in URLs (/sso/callback/{providerId}) and in its users' accounts. */
const providerIdField = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "letters, digits, '.', '_' and '-', at most 100");
/** The issuer URL (OIDC `iss`; SAML IdP entity id). */
const issuerField = z.string().url().max(2048);
/** One domain, or several comma-separated (one IdP serving several email domains). */
const domainField = z.string().min(1).max(2048);
const roleField = z.string().min(1).max(64);

/**
 * A session, or without one the setup cookie of an SSO setup link (contracts/sso-setup.ts), which
 * confines its holder to its one organization; neither: 401.
 */
const SETUP_CREDENTIALS = ["session", "sso-setup"] as const;

const MANAGE_ERRORS = [
  "UNAUTHORIZED",
  "SSO_SETUP_LINK_OTHER_ORGANIZATION",
  "NO_ACTIVE_ORGANIZATION",
  "NOT_A_MEMBER_OF_ORGANIZATION",
  "SSO_MANAGE_NOT_ALLOWED",
] as const;

const CONFIG_ERRORS = [
  "INVALID_DOMAIN",
  "SSO_DEFAULT_ROLE_NOT_ALLOWED",
  "SSO_ENDPOINTS_REQUIRED",
  "SSO_URL_NOT_ALLOWED",
  "SSO_DISCOVERY_FAILED",
  "SSO_DISCOVERY_INVALID",
  "SSO_JWKS_HOST_MISMATCH",
  "SAML_CERTIFICATE_INVALID",
  "SAML_CERTIFICATE_EXPIRED",
] as const;

export const registerSsoProviderContract = defineContract({
  name: "registerSSOProvider",
  method: "POST",
  path: "/sso/register",
  auth: "optional",
  httpCredentials: SETUP_CREDENTIALS,
  body: z.strictObject({
    providerId: providerIdField,
    issuer: issuerField,
    domain: domainField,
    oidcConfig: oidcConfigSchema.optional(),
    samlConfig: samlConfigSchema.optional(),
    /** @default the caller's active organization */
    organizationId: z.string().min(1).max(64).optional(),
    overrideUserInfo: z.boolean().optional(),
    /** The role of members a first sign-in creates. @default "member" */
    defaultRole: roleField.optional(),
    /** Off: registered but refusing sign-ins until turned on (after "test this connection"). @default true */
    enabled: z.boolean().optional(),
  }),
  response: ssoProviderSchema,
  errors: [
    ...MANAGE_ERRORS,
    ...CONFIG_ERRORS,
    "SSO_CONFIG_REQUIRED",
    "SSO_PROVIDER_ID_TAKEN",
    "SSO_PROVIDER_ID_RESERVED",
  ],
  summary: "Registers an SSO connection (OIDC or SAML) of an organization; owners and admins only.",
  notes:
    "An OIDC connection's discovery document is fetched and checked now (unless `skipDiscovery`). The answer carries the redirect URI to register at the IdP, never the client secret.",
  tags: ["sso"],
  client: "sso.register",
});

/** Better Auth's list answer. */
export interface SsoProviderList {
  providers: SsoProvider[];
}

export const listSsoProvidersContract = defineContract({
  name: "listSSOProviders",
  method: "GET",
  path: "/sso/providers",
  auth: "optional",
  httpCredentials: SETUP_CREDENTIALS,
  response: z.strictObject({ providers: z.array(ssoProviderSchema) }) as z.ZodType<SsoProviderList>,
  errors: ["UNAUTHORIZED"],
  summary: "The SSO connections of every organization the caller owns or administers.",
  tags: ["sso"],
});

export const getSsoProviderContract = defineContract({
  name: "getSSOProvider",
  method: "GET",
  path: "/sso/get-provider",
  auth: "optional",
  httpCredentials: SETUP_CREDENTIALS,
  query: z.strictObject({ providerId: providerIdField }),
  response: ssoProviderSchema,
  errors: ["UNAUTHORIZED", "SSO_PROVIDER_NOT_FOUND", "SSO_MANAGE_NOT_ALLOWED"],
  summary: "One SSO connection, without its secrets.",
  tags: ["sso"],
});

export const updateSsoProviderContract = defineContract({
  name: "updateSSOProvider",
  method: "POST",
  path: "/sso/update-provider",
  auth: "optional",
  httpCredentials: SETUP_CREDENTIALS,
  body: z.strictObject({
    providerId: providerIdField,
    issuer: issuerField.optional(),
    domain: domainField.optional(),
    oidcConfig: oidcConfigSchema.partial().optional(),
    samlConfig: samlConfigSchema.partial().optional(),
    defaultRole: roleField.optional(),
    enabled: z.boolean().optional(),
    mapping: ssoMappingSchema.optional(),
  }),
  response: ssoProviderSchema,
  errors: [
    "UNAUTHORIZED",
    "SSO_PROVIDER_NOT_FOUND",
    "SSO_MANAGE_NOT_ALLOWED",
    "SSO_NO_UPDATE_FIELDS",
    "SSO_LAST_CONNECTION_REQUIRED",
    ...CONFIG_ERRORS,
  ],
  summary:
    "Changes the given fields of an SSO connection (an OIDC endpoint change is discovered and checked again).",
  tags: ["sso"],
});

export const deleteSsoProviderContract = defineContract({
  name: "deleteSSOProvider",
  method: "POST",
  path: "/sso/delete-provider",
  auth: "session",
  body: z.strictObject({ providerId: providerIdField }),
  response: z.strictObject({ success: z.literal(true) }),
  errors: ["SSO_PROVIDER_NOT_FOUND", "SSO_MANAGE_NOT_ALLOWED", "SSO_LAST_CONNECTION_REQUIRED"],
  summary: "Deletes an SSO connection and the accounts its users signed in with.",
  tags: ["sso"],
});

/** What "test this connection" checked, each passed (a failure answers its catalogue code instead). */
export interface SsoProviderTest {
  success: true;
  checks: string[];
  /** SAML: when the earliest of the IdP's signing certificates expires (ISO 8601); absent for OIDC. */
  certificateExpiresAt?: string;
}

export const testSsoProviderContract = defineContract({
  name: "testSSOProvider",
  method: "POST",
  path: "/sso/test-provider",
  auth: "optional",
  httpCredentials: SETUP_CREDENTIALS,
  body: z.strictObject({ providerId: providerIdField }),
  response: z.strictObject({
    success: z.literal(true),
    checks: z.array(z.string()),
    certificateExpiresAt: z.string().optional(),
  }) as z.ZodType<SsoProviderTest>,
  errors: [
    "UNAUTHORIZED",
    "SSO_PROVIDER_NOT_FOUND",
    "SSO_MANAGE_NOT_ALLOWED",
    "SSO_URL_NOT_ALLOWED",
    "SSO_DISCOVERY_FAILED",
    "SSO_DISCOVERY_INVALID",
    "SSO_JWKS_HOST_MISMATCH",
    "SSO_JWKS_UNUSABLE",
    "SAML_CERTIFICATE_INVALID",
    "SAML_CERTIFICATE_EXPIRED",
  ],
  summary:
    "Tests a connection before it is turned on: for OIDC, fetches and checks the discovery document and the signing keys; for SAML, the sign-in URL and the signing certificates.",
  notes:
    "Answers what was checked, and for SAML when the earliest signing certificate expires; the first problem found answers its catalogue code instead (the IdP's URL refused, discovery unreachable or naming another issuer, keys on another host or unusable, a certificate unreadable or expired).",
  tags: ["sso"],
});

/** Better Auth's answer: the IdP's URL to send the browser to. */
export interface SsoSignInResult {
  url: string;
  redirect: true;
}

export const signInSsoContract = defineContract({
  name: "signInSSO",
  method: "POST",
  path: "/sign-in/sso",
  auth: "none",
  body: z.strictObject({
    email: z.string().min(3).max(320).optional(),
    organizationSlug: z.string().min(1).max(256).optional(),
    providerId: providerIdField.optional(),
    domain: z.string().min(1).max(253).optional(),
    /** @default the base URL's origin */
    callbackURL: callbackURLField.optional(),
    errorCallbackURL: callbackURLField.optional(),
    newUserCallbackURL: callbackURLField.optional(),
    scopes: z.array(z.string().min(1).max(256)).max(20).optional(),
    loginHint: z.string().min(1).max(512).optional(),
    requestSignUp: z.boolean().optional(),
    providerType: z.enum(["oidc", "saml"]).optional(),
    /** A new user's language (one of the eight codes). */
    language: languageField.optional(),
  }),
  response: z.strictObject({ url: z.string(), redirect: z.literal(true) }) as z.ZodType<SsoSignInResult>,
  errors: [
    "SSO_SIGN_IN_TARGET_REQUIRED",
    "SSO_PROVIDER_NOT_FOUND",
    "SSO_PROVIDER_DISABLED",
    "CALLBACK_URL_REQUIRED",
  ],
  summary:
    "Starts a sign-in through an organization's SSO: by providerId, organizationSlug, or the email's verified domain.",
  notes: "Answers `{ url, redirect: true }`: the identity provider's page to send the browser to.",
  tags: ["sso"],
  client: "signIn.sso",
});

const callbackInput = z.looseObject({
  code: z.string().max(4096).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

export const callbackSsoContract = defineContract({
  name: "callbackSSO",
  method: "GET",
  path: "/sso/callback/:providerId",
  auth: "none",
  setsSessionCookies: true,
  query: callbackInput,
  // Always a redirect: the flow's callbackURL (newUserCallbackURL for a new user), or on failure its
  // errorCallbackURL or the /error page with the catalogue code as `error`.
  response: z.never(),
  answers: "json-or-redirect",
  errors: [],
  summary: "The OIDC identity provider's return point; signs the user in and redirects onward.",
  client: false,
  tags: ["sso"],
});
