import type { SsoMapping } from "../../contracts/sso-models.ts";

/**
 * Pure decisions about SSO connections (docs/security.md "Single sign-on"). No I/O.
 */

/** The OIDC scopes asked for when the connection names none. */
export const DEFAULT_OIDC_SCOPES = ["openid", "email", "profile"];

/**
 * The oldest id token a callback accepts (its `iat`): the code was just exchanged, so anything older
 * was minted for another sign-in (OIDC Core §3.1.3.7 (10) lets the client bound it).
 */
export const ID_TOKEN_MAX_AGE_SECONDS = 600;

/** The OIDC claim each user field comes from when the connection's mapping does not say (OIDC Core §5.1). */
const OIDC_CLAIMS = {
  id: "sub",
  email: "email",
  emailVerified: "email_verified",
  name: "name",
  firstName: "given_name",
  lastName: "family_name",
  image: "picture",
  groups: "groups",
} as const;

/**
 * The declared domains of a connection: lower case, split on commas (one IdP serving several
 * domains, as Better Auth's payload allows), each normalized by `normalize` (features/sso-domains);
 * null when one is not a host name.
 */
export function parseDeclaredDomains(
  domain: string,
  normalize: (input: string) => string | null,
): string[] | null {
  const parts = domain.split(",").map((part) => part.trim());
  if (parts.length === 0 || parts.length > 20) return null;
  const domains: string[] = [];
  for (const part of parts) {
    const normalized = normalize(part);
    if (normalized === null) return null;
    if (!domains.includes(normalized)) domains.push(normalized);
  }
  return domains;
}

/**
 * True when the JWKS is served by the issuer's own host. Keys fetched from anywhere else would let
 * whoever controls that host sign tokens in the issuer's name (docs/security.md "Single sign-on":
 * a tampered discovery document or a typo cannot move trust to another host).
 */
export function isJwksOnIssuerHost(jwksUrl: string, issuer: string): boolean {
  try {
    return new URL(jwksUrl).host === new URL(issuer).host;
  } catch {
    return false;
  }
}

/** The last four characters of a client id, the rest masked (what the answers show of it). */
export function maskClientId(clientId: string): string {
  return clientId.length <= 4 ? "****" : `****${clientId.slice(-4)}`;
}

export interface MappedIdentity {
  /** The IdP's stable subject for the user: the account id. */
  id: string | null;
  /** Lower case; null when the IdP gives none. */
  email: string | null;
  /** What the IdP says; an address is verified by us only through a verified domain (jit.ts). */
  emailVerified: boolean;
  name: string;
  image: string | null;
  groups: string[];
}

function text(value: unknown): string | null {
  if (typeof value === "string") return value.length > 0 ? value : null;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** The user's fields from the IdP's claims, read where the connection's mapping says. */
export function mapOidcClaims(claims: Record<string, unknown>, mapping: SsoMapping): MappedIdentity {
  const claim = (key: keyof typeof OIDC_CLAIMS) => claims[mapping[key] ?? OIDC_CLAIMS[key]];
  const given = text(claim("firstName"));
  const family = text(claim("lastName"));
  const joined = [given, family].filter((part): part is string => part !== null).join(" ");
  const rawGroups = claim("groups");
  const verified = claim("emailVerified");
  return {
    id: text(claim("id")),
    email: text(claim("email"))?.trim().toLowerCase() ?? null,
    emailVerified: verified === true || verified === "true",
    name: (text(claim("name")) ?? joined).slice(0, 256),
    image: text(claim("image")),
    groups: Array.isArray(rawGroups)
      ? rawGroups.filter((group): group is string => typeof group === "string")
      : typeof rawGroups === "string"
        ? [rawGroups]
        : [],
  };
}

/** The role a new member gets: that of the first of their groups the mapping names, else the default. */
export function roleForGroups(groups: readonly string[], mapping: SsoMapping, defaultRole: string): string {
  const table = mapping.groupRoles ?? {};
  for (const group of groups) {
    if (Object.hasOwn(table, group)) return table[group] as string;
  }
  return defaultRole;
}
