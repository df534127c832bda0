import { createProviderFromSpec } from "./base.ts";
import { asArray, asString, isTrue, type JsonRecord, profileFromOidcClaims } from "./fields.ts";
import { readTokenEndpointIdToken } from "./id-token.ts";
import { fetchUserInfo } from "./oauth2.ts";
import type {
  OAuthProvider,
  ProviderDeps,
  ProviderEndpoints,
  ProviderOptions,
  ProviderProfile,
} from "./types.ts";

/**
 * Microsoft Entra ID (v2.0 endpoints). Quirks: the tenant is part of every URL; with a
 * multi-tenant value ("common", "organizations", "consumers") id tokens carry the issuer of the
 * user's own tenant, so `iss` must equal the issuer template with the token's `tid` (never "any
 * microsoft issuer"), and the `tid` must be one the value admits: "organizations" refuses the
 * personal-account tenant, "consumers" admits only it. Set `tenantId` to the tenant's id for an
 * exact issuer. Entra rarely sends `email_verified`, so the email counts as verified only when a
 * verification claim names it.
 */

const MULTI_TENANT = new Set(["common", "organizations", "consumers"]);
/**
 * The tenant of every personal Microsoft account (MSA): what "consumers" means in a token.
 * @internal Exported for microsoft-tenants.test.ts.
 */
export const PERSONAL_ACCOUNTS_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";
const TENANT_PLACEHOLDER = "{tenantid}";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which token tenants a configured multi-tenant value admits. */
function admitsTenant(tenant: string, tid: string): boolean {
  if (tenant === "organizations") return tid !== PERSONAL_ACCOUNTS_TENANT;
  if (tenant === "consumers") return tid === PERSONAL_ACCOUNTS_TENANT;
  return true;
}

function mapMicrosoftClaims(claims: JsonRecord | null): ProviderProfile | null {
  const profile = profileFromOidcClaims(claims);
  if (!claims || !profile) return null;
  const email = profile.email;
  const listed = [...asArray(claims.verified_primary_email), ...asArray(claims.verified_secondary_email)];
  const verified =
    isTrue(claims.email_verified) || isTrue(claims.xms_edov) || listed.some((entry) => entry === email);
  return { ...profile, emailVerified: email !== null && verified };
}

/**
 * `iss` check: exact for a single tenant; for multi-tenant, the template filled with the token's own
 * `tid`, a tenant the configured value admits.
 */
function microsoftIssuer(tenant: string) {
  return (endpoints: ProviderEndpoints) => {
    const template = endpoints.issuer ?? "";
    return (issuer: string, claims: JsonRecord) => {
      if (!template.includes(TENANT_PLACEHOLDER)) return issuer === template;
      const tid = asString(claims.tid);
      if (tid === null || !GUID.test(tid) || !admitsTenant(tenant, tid.toLowerCase())) return false;
      return issuer === template.replace(TENANT_PLACEHOLDER, tid);
    };
  };
}

export function createMicrosoftProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  const tenant = options.tenantId ?? "common";
  const base = `https://login.microsoftonline.com/${tenant}`;
  // Tokens name their tenant by id: only a tenant id gives an exact issuer. A multi-tenant value or a
  // domain ("contoso.onmicrosoft.com") checks `iss` against the token's own `tid` instead.
  const isTenantId = GUID.test(tenant) && !MULTI_TENANT.has(tenant);
  const issuerTenant = isTenantId ? tenant : TENANT_PLACEHOLDER;
  // A domain names its tenant, but a token names it only by id, and nothing here maps one to the
  // other: a client-supplied id token from any tenant would pass. So with a domain, id-token
  // sign-in is refused (configure the tenant id to allow it); the code flow still checks the id
  // token it gets from the domain tenant's own token endpoint.
  const isDomain = !isTenantId && !MULTI_TENANT.has(tenant);
  return createProviderFromSpec(
    {
      id: "microsoft",
      name: "Microsoft",
      endpoints: {
        authorization: `${base}/oauth2/v2.0/authorize`,
        token: `${base}/oauth2/v2.0/token`,
        userInfo: "https://graph.microsoft.com/oidc/userinfo",
        jwks: `${base}/discovery/v2.0/keys`,
        issuer: `https://login.microsoftonline.com/${issuerTenant}/v2.0`,
      },
      defaultScopes: ["openid", "profile", "email", "User.Read", "offline_access"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      loginHint: true,
      getUserProfile: async (client, tokens) => {
        const claims = readTokenEndpointIdToken(tokens.idToken);
        if (claims) return mapMicrosoftClaims(claims);
        const info = await fetchUserInfo(client, client.endpoints.userInfo, tokens);
        return mapMicrosoftClaims(info as JsonRecord | null);
      },
      idToken: {
        toProfile: mapMicrosoftClaims,
        issuer: microsoftIssuer(tenant),
        acceptsClientTokens: !isDomain,
      },
    },
    options,
    deps,
  );
}
