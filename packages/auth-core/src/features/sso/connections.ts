import type { z } from "zod";
import { PROVIDER_IDS } from "../../config/social-provider-options.ts";
import type { AuthContext } from "../../context.ts";
import type { registerSsoProviderContract, updateSsoProviderContract } from "../../contracts/sso.ts";
import type { SsoMapping } from "../../contracts/sso-models.ts";
import { encryptString } from "../../crypto/index.ts";
import { CREDENTIAL_PROVIDER_ID, type SsoOidcConfigDoc, type SsoProviderDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { deleteProviderAccounts } from "../users/index.ts";
import { normalizeDomain } from "./domains.ts";
import { checkSigningKeys, discoverOidcEndpoints, type OidcEndpoints } from "./oidc-client.ts";
import { isJwksOnIssuerHost, parseDeclaredDomains } from "./rules.ts";
import { checkSamlCertificates } from "./saml/certificate.ts";
import { trustedCertificates } from "./saml/connection.ts";
import { sealSamlSecrets } from "./saml-secrets.ts";
import { hasGrantableRoles } from "./service.ts";
import * as store from "./store.ts";

/**
 * Registering, changing and removing connections (docs/security.md "Single sign-on"): every
 * check runs before the write; secrets are sealed with the app secret before they reach the store.
 */

type RegisterBody = z.output<NonNullable<(typeof registerSsoProviderContract)["body"]>>;
type UpdateBody = z.output<NonNullable<(typeof updateSsoProviderContract)["body"]>>;
type OidcInput = NonNullable<RegisterBody["oidcConfig"]>;

const DEFAULT_MEMBER_ROLE = "member";

/**
 * Ids a connection may not take: the providerId of its users' accounts would be a built-in or
 * configured provider's, or the password account's — signing in as those accounts' owners.
 */
function isReservedProviderId(auth: AuthContext, providerId: string): boolean {
  const id = providerId.toLowerCase();
  return (
    id === CREDENTIAL_PROVIDER_ID ||
    (PROVIDER_IDS as readonly string[]).includes(id) ||
    auth.options.genericOAuth.some((provider) => provider.providerId.toLowerCase() === id)
  );
}

function isFetchableURL(auth: AuthContext, url: string): boolean {
  const protocol = new URL(url).protocol;
  return protocol === "https:" || (auth.options.outbound.allowPrivateAddresses && protocol === "http:");
}

/** The default discovery document of an issuer (OIDC Discovery §4). */
function discoveryURLOf(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

/**
 * The endpoints of an OIDC connection: discovered and checked (discovery.ts), the ones given
 * explicitly winning; or, with skipDiscovery, the given ones alone. Either way the JWKS must be on
 * the issuer's host.
 */
async function resolveOidcEndpoints(
  auth: AuthContext,
  issuer: string,
  input: Partial<OidcInput>,
): Promise<Outcome<OidcEndpoints & { discoveryEndpoint: string }, ErrorCode>> {
  const discoveryEndpoint = input.discoveryEndpoint ?? discoveryURLOf(issuer);
  const given = [
    input.authorizationEndpoint,
    input.tokenEndpoint,
    input.userInfoEndpoint,
    input.jwksEndpoint,
  ];
  if (![discoveryEndpoint, ...given].every((url) => url === undefined || isFetchableURL(auth, url)))
    return refused("SSO_URL_NOT_ALLOWED");
  let endpoints: OidcEndpoints;
  if (input.skipDiscovery) {
    if (!input.authorizationEndpoint || !input.tokenEndpoint || !input.jwksEndpoint)
      return refused("SSO_ENDPOINTS_REQUIRED");
    endpoints = {
      authorizationEndpoint: input.authorizationEndpoint,
      tokenEndpoint: input.tokenEndpoint,
      userInfoEndpoint: input.userInfoEndpoint ?? null,
      jwksEndpoint: input.jwksEndpoint,
      tokenEndpointAuthentication: input.tokenEndpointAuthentication ?? "client_secret_basic",
    };
  } else {
    const discovered = await discoverOidcEndpoints(auth, discoveryEndpoint, issuer);
    if (!discovered.ok) return discovered;
    const found = discovered.value;
    endpoints = {
      authorizationEndpoint: input.authorizationEndpoint ?? found.authorizationEndpoint,
      tokenEndpoint: input.tokenEndpoint ?? found.tokenEndpoint,
      userInfoEndpoint: input.userInfoEndpoint ?? found.userInfoEndpoint,
      jwksEndpoint: input.jwksEndpoint ?? found.jwksEndpoint,
      tokenEndpointAuthentication: input.tokenEndpointAuthentication ?? found.tokenEndpointAuthentication,
    };
  }
  if (!isJwksOnIssuerHost(endpoints.jwksEndpoint, issuer)) return refused("SSO_JWKS_HOST_MISMATCH");
  return granted({ ...endpoints, discoveryEndpoint });
}

async function buildOidcConfig(
  auth: AuthContext,
  issuer: string,
  input: OidcInput,
  overrideUserInfo: boolean,
): Promise<Outcome<SsoOidcConfigDoc, ErrorCode>> {
  const endpoints = await resolveOidcEndpoints(auth, issuer, input);
  if (!endpoints.ok) return endpoints;
  return granted({
    clientId: input.clientId,
    clientSecret: encryptString(input.clientSecret, auth.options.secret),
    ...endpoints.value,
    scopes: input.scopes ?? [],
    pkce: input.pkce ?? true,
    overrideUserInfo: input.overrideUserInfo ?? overrideUserInfo,
  });
}

/** Registers a connection of `organizationId` (already checked: the caller manages it). */
export async function registerConnection(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId | null,
  body: RegisterBody,
): Promise<Outcome<SsoProviderDoc, ErrorCode>> {
  if ((body.oidcConfig === undefined) === (body.samlConfig === undefined))
    return refused("SSO_CONFIG_REQUIRED");
  if (isReservedProviderId(auth, body.providerId)) return refused("SSO_PROVIDER_ID_RESERVED");
  if (body.samlConfig) {
    const certificates = checkGivenCertificates(body.samlConfig, auth.now());
    if (!certificates.ok) return certificates;
  }
  const domains = parseDeclaredDomains(body.domain, normalizeDomain);
  if (!domains) return refused("INVALID_DOMAIN");
  const mapping: SsoMapping = body.oidcConfig?.mapping ?? body.samlConfig?.mapping ?? {};
  const defaultRole = body.defaultRole ?? DEFAULT_MEMBER_ROLE;
  if (!hasGrantableRoles(auth, defaultRole, mapping)) return refused("SSO_DEFAULT_ROLE_NOT_ALLOWED");
  if (await store.findSsoProvider(auth.collections, body.providerId)) return refused("SSO_PROVIDER_ID_TAKEN");
  let oidcConfig: SsoOidcConfigDoc | null = null;
  if (body.oidcConfig) {
    const built = await buildOidcConfig(auth, body.issuer, body.oidcConfig, body.overrideUserInfo ?? false);
    if (!built.ok) return built;
    oidcConfig = built.value;
  }
  const now = auth.now();
  const doc: SsoProviderDoc = {
    _id: new ObjectId(),
    providerId: body.providerId,
    organizationId,
    userId,
    type: body.oidcConfig ? "oidc" : "saml",
    issuer: body.issuer,
    domain: body.domain,
    domains,
    oidcConfig,
    samlConfig: body.samlConfig ? sealSamlSecrets(body.samlConfig, auth.options.secret) : null,
    mapping,
    defaultRole,
    enabled: body.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await store.insertSsoProvider(auth.collections, doc))) return refused("SSO_PROVIDER_ID_TAKEN");
  return granted(doc);
}

/**
 * The certificates a register or update body gives (the top-level cert and idpMetadata's), each
 * readable and unexpired (saml/certificate.ts); the ones already stored are not read again.
 */
function checkGivenCertificates(
  config: {
    cert?: string | string[] | undefined;
    idpMetadata?: { cert?: string | string[] | undefined } | undefined;
  },
  now: Date,
): Outcome<Date | null, ErrorCode> {
  return checkSamlCertificates([config.cert ?? [], config.idpMetadata?.cert ?? []].flat(), now);
}

/** Whether an update asks to change anything. */
export function hasUpdateFields(body: UpdateBody): boolean {
  const { providerId: _, ...fields } = body;
  return Object.values(fields).some((value) => value !== undefined);
}

/**
 * Changes a connection (already checked: the caller manages it). New OIDC endpoints, issuer or
 * discovery URL are resolved and checked again like at registration; a new client secret is sealed.
 */
export async function updateConnection(
  auth: AuthContext,
  current: SsoProviderDoc,
  body: UpdateBody,
): Promise<Outcome<SsoProviderDoc | null, ErrorCode>> {
  const fields: Partial<SsoProviderDoc> = {};
  if (body.issuer !== undefined) fields.issuer = body.issuer;
  if (body.domain !== undefined) {
    const domains = parseDeclaredDomains(body.domain, normalizeDomain);
    if (!domains) return refused("INVALID_DOMAIN");
    Object.assign(fields, { domain: body.domain, domains });
  }
  const mapping = body.mapping ?? body.oidcConfig?.mapping ?? body.samlConfig?.mapping ?? current.mapping;
  const defaultRole = body.defaultRole ?? current.defaultRole;
  if (!hasGrantableRoles(auth, defaultRole, mapping)) return refused("SSO_DEFAULT_ROLE_NOT_ALLOWED");
  Object.assign(fields, { mapping, defaultRole });
  if (body.enabled !== undefined) fields.enabled = body.enabled;
  const issuer = fields.issuer ?? current.issuer;
  if (current.oidcConfig && (body.oidcConfig || body.issuer !== undefined)) {
    const input = body.oidcConfig ?? {};
    const stored = current.oidcConfig;
    // With skipDiscovery the stored endpoints stand unless given again.
    const kept = input.skipDiscovery
      ? {
          authorizationEndpoint: stored.authorizationEndpoint,
          tokenEndpoint: stored.tokenEndpoint,
          jwksEndpoint: stored.jwksEndpoint,
          ...(stored.userInfoEndpoint ? { userInfoEndpoint: stored.userInfoEndpoint } : {}),
        }
      : {};
    const endpoints = await resolveOidcEndpoints(auth, issuer, {
      ...kept,
      ...input,
      discoveryEndpoint: input.discoveryEndpoint ?? stored.discoveryEndpoint,
    });
    if (!endpoints.ok) return endpoints;
    fields.oidcConfig = {
      ...stored,
      ...endpoints.value,
      clientId: input.clientId ?? stored.clientId,
      clientSecret:
        input.clientSecret === undefined
          ? stored.clientSecret
          : encryptString(input.clientSecret, auth.options.secret),
      scopes: input.scopes ?? stored.scopes,
      pkce: input.pkce ?? stored.pkce,
      overrideUserInfo: input.overrideUserInfo ?? stored.overrideUserInfo,
    };
  }
  if (current.samlConfig && body.samlConfig) {
    const certificates = checkGivenCertificates(body.samlConfig, auth.now());
    if (!certificates.ok) return certificates;
    const { mapping: _, ...rest } = body.samlConfig;
    fields.samlConfig = { ...current.samlConfig, ...sealSamlSecrets(rest, auth.options.secret) };
  }
  fields.updatedAt = new Date(Math.max(auth.now().getTime(), current.updatedAt.getTime() + 1));
  return granted(await store.updateSsoProvider(auth.collections, current, fields));
}

/**
 * "Test this connection": for OIDC the discovery document is fetched and checked again (issuer,
 * endpoints, JWKS on the issuer's host) and the signing keys fetched; for SAML the IdP's URL must be
 * one the server may reach and its signing certificates readable and unexpired (their earliest
 * expiry is answered, so an owner sees a rotation coming). The checks passed, or the first
 * problem's code.
 */
export async function testConnection(
  auth: AuthContext,
  provider: SsoProviderDoc,
): Promise<Outcome<{ checks: string[]; certificateExpiresAt: Date | null }, ErrorCode>> {
  const oidc = provider.oidcConfig;
  if (!oidc) {
    const saml = provider.samlConfig;
    if (!saml?.entryPoint || !isFetchableURL(auth, saml.entryPoint)) return refused("SSO_URL_NOT_ALLOWED");
    const certificates = checkSamlCertificates(trustedCertificates(saml), auth.now());
    if (!certificates.ok) return certificates;
    return granted({ checks: ["entryPoint", "certificate"], certificateExpiresAt: certificates.value });
  }
  const discovered = await discoverOidcEndpoints(auth, oidc.discoveryEndpoint, provider.issuer);
  if (!discovered.ok) return discovered;
  if (!isJwksOnIssuerHost(oidc.jwksEndpoint, provider.issuer)) return refused("SSO_JWKS_HOST_MISMATCH");
  const keys = await checkSigningKeys(auth, oidc.jwksEndpoint);
  if (!keys.ok) return keys;
  return granted({ checks: ["discovery", "issuer", "jwks"], certificateExpiresAt: null });
}

/**
 * Deletes a connection and the accounts its users signed in with (Better Auth does the same): a
 * connection registered later under the same providerId, by any organization, must not sign into
 * them. The users stay. Null when it was gone already; else how many accounts went.
 */
export async function removeConnection(auth: AuthContext, provider: SsoProviderDoc): Promise<number | null> {
  if (!(await store.deleteSsoProvider(auth.collections, provider._id))) return null;
  return deleteProviderAccounts(auth.collections, provider.providerId);
}
