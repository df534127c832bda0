import type { AuthContext } from "../../context.ts";
import type { SsoProviderDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { findOrganization, findOrganizationBySlug } from "../organization/index.ts";
import { createAuthorizationURL, type FlowStart, startAuthorizationFlow } from "../social/index.ts";
import { emailDomainOf, findVerifiedDomain, normalizeDomain } from "./domains.ts";
import { oidcClientOf } from "./oidc-client.ts";
import { oidcRedirectURI } from "./service.ts";
import * as store from "./store.ts";

/**
 * Starting an SSO sign-in (Better Auth's POST /sign-in/sso): which connection, then the IdP's
 * authorization URL with a one-time state bound to this browser, a PKCE verifier and a nonce.
 */

/** The OAuth state's provider id of a connection: never a social provider's (mix-up, callback.ts). */
export function ssoStateProviderId(providerId: string): string {
  return `sso:${providerId}`;
}

export interface SignInTarget {
  providerId?: string | undefined;
  organizationSlug?: string | undefined;
  email?: string | undefined;
  domain?: string | undefined;
  providerType?: "oidc" | "saml" | undefined;
}

function pickEnabled(providers: SsoProviderDoc[], type: SignInTarget["providerType"]): SsoProviderDoc | null {
  return (
    providers.find((provider) => provider.enabled && (type === undefined || provider.type === type)) ?? null
  );
}

/**
 * The connection a sign-in goes to: by providerId; else the organization's (by slug); else by the
 * address's domain — only a domain the organization has verified (features/sso-domains), or, under
 * `sso.trustDeclaredDomains` (development), one a connection declares. An unverified declaration
 * never routes anyone: two organizations could declare the same domain (docs/security.md).
 */
export async function findSignInConnection(
  auth: AuthContext,
  target: SignInTarget,
): Promise<
  Outcome<SsoProviderDoc, "SSO_SIGN_IN_TARGET_REQUIRED" | "SSO_PROVIDER_NOT_FOUND" | "SSO_PROVIDER_DISABLED">
> {
  let found: SsoProviderDoc | null = null;
  if (target.providerId !== undefined) {
    found = await store.findSsoProviderRecent(auth.collections, target.providerId);
    if (found && !found.enabled) return refused("SSO_PROVIDER_DISABLED");
  } else if (target.organizationSlug !== undefined) {
    const organization = await findOrganizationBySlug(auth, target.organizationSlug);
    const providers = organization
      ? await store.findOrganizationSsoProviders(auth.collections, [organization._id])
      : [];
    found = pickEnabled(providers, target.providerType);
  } else if (target.email !== undefined || target.domain !== undefined) {
    const domain =
      target.domain !== undefined ? normalizeDomain(target.domain) : emailDomainOf(target.email ?? "");
    if (domain !== null) found = await findDomainConnection(auth, domain, target.providerType);
  } else {
    return refused("SSO_SIGN_IN_TARGET_REQUIRED");
  }
  if (!found) return refused("SSO_PROVIDER_NOT_FOUND");
  if (target.providerType !== undefined && found.type !== target.providerType)
    return refused("SSO_PROVIDER_NOT_FOUND");
  // A deleted organization's connection (its cascade does not reach features/sso) signs nobody in.
  if (!(await findOrganization(auth, found.organizationId))) return refused("SSO_PROVIDER_NOT_FOUND");
  return granted(found);
}

async function findDomainConnection(
  auth: AuthContext,
  domain: string,
  type: SignInTarget["providerType"],
): Promise<SsoProviderDoc | null> {
  const verified = await findVerifiedDomain(auth.collections, domain);
  if (verified) {
    const providers = await store.findOrganizationSsoProviders(auth.collections, [verified.organizationId]);
    return pickEnabled(providers, type);
  }
  if (!auth.options.sso.trustDeclaredDomains) return null;
  return pickEnabled(await store.findDeclaringSsoProviders(auth.collections, domain), type);
}

/**
 * The IdP's authorization URL for an OIDC connection, through social's flow start (state, PKCE,
 * nonce) with the connection's redirect URI. Null when the connection's secret does not open with
 * this app secret (it was sealed under another one): the caller answers 5xx.
 */
export async function startOidcSignIn(
  auth: AuthContext,
  jar: CookieJar,
  provider: SsoProviderDoc,
  input: Omit<FlowStart, "link">,
): Promise<string | null> {
  const client = oidcClientOf(auth, provider);
  if (!client) return null;
  return startAuthorizationFlow(
    auth,
    jar,
    {
      id: ssoStateProviderId(provider.providerId),
      createAuthorizationURL: (authorization) => createAuthorizationURL(client, authorization),
    },
    { ...input, link: null },
    oidcRedirectURI(auth, provider.providerId),
  );
}
