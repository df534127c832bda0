import { z } from "zod";

/**
 * The shapes of SSO connections (features/sso): what the register and update payloads carry (the
 * names of Better Auth 1.7's @better-auth/sso, docs/decisions.md "SSO connections") and what the
 * endpoints answer — never a secret.
 */

const url = z.string().url().max(2048);
const claimName = z.string().min(1).max(256);
/** A PEM certificate, or several for a rolling rotation. */
const certificates = z.union([
  z.string().min(1).max(20_000),
  z.array(z.string().min(1).max(20_000)).min(1).max(10),
]);
/** Metadata XML, bounded like Better Auth's 100 KiB default. */
const metadataXml = z.string().min(1).max(102_400);
const secretText = z.string().min(1).max(20_000);

/**
 * Which claim (OIDC) or attribute (SAML) carries each user field; absent keys take the protocol's
 * defaults (features/sso/rules.ts). `groups` names the claim listing the user's groups; `groupRoles`
 * gives a new member the role of the first listed group they are in (else the connection's
 * defaultRole).
 */
export const ssoMappingSchema = z.strictObject({
  id: claimName.optional(),
  email: claimName.optional(),
  emailVerified: claimName.optional(),
  name: claimName.optional(),
  firstName: claimName.optional(),
  lastName: claimName.optional(),
  image: claimName.optional(),
  groups: claimName.optional(),
  groupRoles: z.record(z.string().min(1).max(256), z.string().min(1).max(64)).optional(),
  extraFields: z.record(z.string().max(256), z.string().max(256)).optional(),
});
export type SsoMapping = z.output<typeof ssoMappingSchema>;

export const oidcConfigSchema = z.strictObject({
  clientId: z.string().min(1).max(512),
  clientSecret: z.string().min(1).max(4096),
  authorizationEndpoint: url.optional(),
  tokenEndpoint: url.optional(),
  userInfoEndpoint: url.optional(),
  jwksEndpoint: url.optional(),
  discoveryEndpoint: url.optional(),
  /** Use the endpoints given instead of fetching the discovery document (then authorization, token and JWKS are required). */
  skipDiscovery: z.boolean().optional(),
  tokenEndpointAuthentication: z.enum(["client_secret_basic", "client_secret_post"]).optional(),
  /** @default ["openid", "email", "profile"] */
  scopes: z.array(z.string().min(1).max(256)).max(50).optional(),
  /** @default true */
  pkce: z.boolean().optional(),
  overrideUserInfo: z.boolean().optional(),
  mapping: ssoMappingSchema.optional(),
});

const samlKeyFields = {
  privateKey: secretText.optional(),
  privateKeyPass: secretText.optional(),
  isAssertionEncrypted: z.boolean().optional(),
  encPrivateKey: secretText.optional(),
  encPrivateKeyPass: secretText.optional(),
};

const samlServiceSchema = z.strictObject({ Binding: z.string().min(1).max(256), Location: url });

export const samlConfigSchema = z.strictObject({
  entryPoint: url,
  cert: certificates.optional(),
  audience: z.string().max(2048).optional(),
  callbackUrl: url.optional(),
  idpInitiatedCallbackUrl: z.string().max(2048).optional(),
  idpMetadata: z
    .strictObject({
      metadata: metadataXml.optional(),
      entityID: z.string().min(1).max(2048).optional(),
      cert: certificates.optional(),
      singleSignOnService: z.array(samlServiceSchema).max(10).optional(),
      singleLogoutService: z.array(samlServiceSchema).max(10).optional(),
      ...samlKeyFields,
    })
    .optional(),
  spMetadata: z
    .strictObject({
      metadata: metadataXml.optional(),
      entityID: z.string().max(2048).optional(),
      binding: z.string().max(256).optional(),
      ...samlKeyFields,
    })
    .optional(),
  wantAssertionsSigned: z.boolean().optional(),
  authnRequestsSigned: z.boolean().optional(),
  signatureAlgorithm: z.string().max(256).optional(),
  digestAlgorithm: z.string().max(256).optional(),
  identifierFormat: z.string().max(256).optional(),
  /** Accept responses no AuthnRequest of ours asked for (IdP-initiated sign-in, docs/security.md "SAML"). @default false */
  allowIdpInitiated: z.boolean().optional(),
  privateKey: secretText.optional(),
  mapping: ssoMappingSchema.optional(),
});
/** As stored (SsoProviderDoc.samlConfig): the payload, its keys and passphrases sealed, mapping moved to the connection. */
export type SsoSamlConfig = Omit<z.output<typeof samlConfigSchema>, "mapping">;

/** The OIDC half of a connection's answer: endpoints and settings, the client id's last four characters only. */
interface SsoOidcConfigView {
  discoveryEndpoint: string;
  clientIdLastFour: string;
  pkce: boolean;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string | null;
  jwksEndpoint: string;
  scopes: string[];
  tokenEndpointAuthentication: "client_secret_basic" | "client_secret_post";
}

/** The SAML half of a connection's answer (no key, no passphrase). */
interface SsoSamlConfigView {
  entryPoint: string;
  callbackUrl: string | null;
  audience: string | null;
  wantAssertionsSigned: boolean;
  authnRequestsSigned: boolean;
  identifierFormat: string | null;
  signatureAlgorithm: string | null;
  digestAlgorithm: string | null;
}

/** A connection as the endpoints answer it. */
export interface SsoProvider {
  providerId: string;
  type: "oidc" | "saml";
  issuer: string;
  domain: string;
  organizationId: string;
  /** Every declared domain is verified for the organization (features/sso-domains). */
  domainVerified: boolean;
  enabled: boolean;
  defaultRole: string;
  mapping: SsoMapping;
  oidcConfig?: SsoOidcConfigView;
  samlConfig?: SsoSamlConfigView;
  /** What to register at the IdP: the OIDC redirect URI. */
  redirectURI: string;
  /** Tessera's SAML SP metadata for this connection. */
  spMetadataUrl: string;
  createdAt: Date;
  updatedAt: Date;
}

export const ssoProviderSchema: z.ZodType<SsoProvider> = z.strictObject({
  providerId: z.string(),
  type: z.enum(["oidc", "saml"]),
  issuer: z.string(),
  domain: z.string(),
  organizationId: z.string(),
  domainVerified: z.boolean(),
  enabled: z.boolean(),
  defaultRole: z.string(),
  mapping: ssoMappingSchema,
  oidcConfig: z
    .strictObject({
      discoveryEndpoint: z.string(),
      clientIdLastFour: z.string(),
      pkce: z.boolean(),
      authorizationEndpoint: z.string(),
      tokenEndpoint: z.string(),
      userInfoEndpoint: z.string().nullable(),
      jwksEndpoint: z.string(),
      scopes: z.array(z.string()),
      tokenEndpointAuthentication: z.enum(["client_secret_basic", "client_secret_post"]),
    })
    .optional(),
  samlConfig: z
    .strictObject({
      entryPoint: z.string(),
      callbackUrl: z.string().nullable(),
      audience: z.string().nullable(),
      wantAssertionsSigned: z.boolean(),
      authnRequestsSigned: z.boolean(),
      identifierFormat: z.string().nullable(),
      signatureAlgorithm: z.string().nullable(),
      digestAlgorithm: z.string().nullable(),
    })
    .optional(),
  redirectURI: z.string(),
  spMetadataUrl: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
