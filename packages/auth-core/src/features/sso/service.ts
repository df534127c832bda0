import type { AuthContext } from "../../context.ts";
import type { SsoMapping, SsoProvider } from "../../contracts/sso-models.ts";
import type { SsoProviderDoc } from "../../db/documents.ts";
import { type ObjectId, parseId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import {
  findMember,
  findUnknownRoles,
  findUserMemberships,
  holdsRole,
  roleTableOf,
} from "../organization/index.ts";
import { findVerifiedDomain } from "./domains.ts";
import { type SsoManager, scopedOrganization } from "./manager.ts";
import { maskClientId } from "./rules.ts";
import * as store from "./store.ts";

/**
 * Who may manage a connection and what the endpoints answer of it. The organization is the one
 * named, else the caller's active organization; its owners and admins manage its connections
 * (Better Auth's rule); everyone else is refused before anything is read or written. A setup
 * link's holder (manager.ts) manages its one organization's connections only.
 */

/** The role besides the creator role (owner) that manages connections. */
const MANAGER_ROLE = "admin";

export type AccessRefusal =
  | "NO_ACTIVE_ORGANIZATION"
  | "NOT_A_MEMBER_OF_ORGANIZATION"
  | "SSO_MANAGE_NOT_ALLOWED"
  | "SSO_PROVIDER_NOT_FOUND"
  | "SSO_SETUP_LINK_OTHER_ORGANIZATION";

function isManager(auth: AuthContext, roles: string): boolean {
  return holdsRole(roles, auth.options.organization.creatorRole) || holdsRole(roles, MANAGER_ROLE);
}

/** The organization the caller manages connections of: the one named, else the active one. */
export async function resolveManagedOrganization(
  auth: AuthContext,
  manager: SsoManager,
  organizationId: string | undefined,
): Promise<Outcome<ObjectId, AccessRefusal>> {
  if (manager.kind !== "member") {
    const own = scopedOrganization(manager);
    return organizationId === undefined || organizationId === own.toHexString()
      ? granted(own)
      : refused("SSO_SETUP_LINK_OTHER_ORGANIZATION");
  }
  const { caller } = manager;
  const given = organizationId ?? caller.session.activeOrganizationId ?? null;
  if (given === null) return refused("NO_ACTIVE_ORGANIZATION");
  const id = parseId(given);
  const member = id ? await findMember(auth, id, caller.user._id) : null;
  if (!id || !member) return refused("NOT_A_MEMBER_OF_ORGANIZATION");
  if (!isManager(auth, member.role)) return refused("SSO_MANAGE_NOT_ALLOWED");
  return granted(id);
}

/**
 * The connection, when the caller manages its organization. A connection of an organization the
 * caller is not a member of answers like one that does not exist (no probing of other
 * organizations' provider ids, docs/security.md).
 */
export async function findManagedProvider(
  auth: AuthContext,
  manager: SsoManager,
  providerId: string,
): Promise<Outcome<SsoProviderDoc, AccessRefusal>> {
  const provider = await store.findSsoProvider(auth.collections, providerId);
  if (manager.kind !== "member")
    return provider?.organizationId.equals(scopedOrganization(manager))
      ? granted(provider)
      : refused("SSO_PROVIDER_NOT_FOUND");
  const { caller } = manager;
  const member = provider ? await findMember(auth, provider.organizationId, caller.user._id) : null;
  if (!provider || !member) return refused("SSO_PROVIDER_NOT_FOUND");
  if (!isManager(auth, member.role)) return refused("SSO_MANAGE_NOT_ALLOWED");
  return granted(provider);
}

/** A role new members may get through SSO: a role of the organizations, never the creator role. */
function isGrantableRole(auth: AuthContext, role: string): boolean {
  return (
    role !== auth.options.organization.creatorRole && findUnknownRoles([role], roleTableOf(auth)).length === 0
  );
}

/** The mapping's group roles and the default role are all grantable. */
export function hasGrantableRoles(auth: AuthContext, defaultRole: string, mapping: SsoMapping): boolean {
  return [defaultRole, ...Object.values(mapping.groupRoles ?? {})].every((role) =>
    isGrantableRole(auth, role),
  );
}

/**
 * Whether the connection may vouch for addresses of `domain`: its organization verified the domain
 * (features/sso-domains); under `sso.trustDeclaredDomains` (development only) the connection
 * declaring it is enough.
 */
export async function isEmailDomainVerified(
  auth: AuthContext,
  provider: Pick<SsoProviderDoc, "organizationId" | "domains">,
  domain: string,
): Promise<boolean> {
  if (auth.options.sso.trustDeclaredDomains) return provider.domains.includes(domain);
  const verified = await findVerifiedDomain(auth.collections, domain);
  return verified?.organizationId.equals(provider.organizationId) === true;
}

async function areDomainsVerified(auth: AuthContext, doc: SsoProviderDoc): Promise<boolean> {
  for (const domain of doc.domains) {
    if (!(await isEmailDomainVerified(auth, doc, domain))) return false;
  }
  return doc.domains.length > 0;
}

/** Where the IdP sends the browser back (register it at the IdP). */
export function oidcRedirectURI(auth: AuthContext, providerId: string): string {
  return `${auth.apiURL}/sso/callback/${encodeURIComponent(providerId)}`;
}

/** The connection as the endpoints answer it: no secret, the client id masked. */
export async function toSsoProvider(auth: AuthContext, doc: SsoProviderDoc): Promise<SsoProvider> {
  const oidc = doc.oidcConfig;
  const saml = doc.samlConfig;
  return {
    providerId: doc.providerId,
    type: doc.type,
    issuer: doc.issuer,
    domain: doc.domain,
    organizationId: doc.organizationId.toHexString(),
    domainVerified: await areDomainsVerified(auth, doc),
    enabled: doc.enabled,
    defaultRole: doc.defaultRole,
    mapping: doc.mapping,
    ...(oidc
      ? {
          oidcConfig: {
            discoveryEndpoint: oidc.discoveryEndpoint,
            clientIdLastFour: maskClientId(oidc.clientId),
            pkce: oidc.pkce,
            authorizationEndpoint: oidc.authorizationEndpoint,
            tokenEndpoint: oidc.tokenEndpoint,
            userInfoEndpoint: oidc.userInfoEndpoint,
            jwksEndpoint: oidc.jwksEndpoint,
            scopes: oidc.scopes,
            tokenEndpointAuthentication: oidc.tokenEndpointAuthentication,
          },
        }
      : {}),
    ...(saml
      ? {
          samlConfig: {
            entryPoint: saml.entryPoint,
            callbackUrl: saml.callbackUrl ?? null,
            audience: saml.audience ?? null,
            wantAssertionsSigned: saml.wantAssertionsSigned ?? true,
            authnRequestsSigned: saml.authnRequestsSigned ?? false,
            identifierFormat: saml.identifierFormat ?? null,
            signatureAlgorithm: saml.signatureAlgorithm ?? null,
            digestAlgorithm: saml.digestAlgorithm ?? null,
          },
        }
      : {}),
    redirectURI: oidcRedirectURI(auth, doc.providerId),
    spMetadataUrl: `${auth.apiURL}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(doc.providerId)}`,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** The connections of every organization the caller manages (a setup link: its one), oldest first. */
export async function listManagedProviders(
  auth: AuthContext,
  manager: SsoManager,
): Promise<SsoProviderDoc[]> {
  if (manager.kind !== "member")
    return store.findOrganizationSsoProviders(auth.collections, [scopedOrganization(manager)]);
  const memberships = await findUserMemberships(auth, manager.caller.user._id);
  const managed = memberships
    .filter((member) => isManager(auth, member.role))
    .map((member) => member.organizationId);
  return managed.length === 0 ? [] : store.findOrganizationSsoProviders(auth.collections, managed);
}
