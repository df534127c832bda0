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
 * microsoft issuer"); set `tenantId` to the tenant's id for an exact issuer; Entra rarely sends `email_verified`, so the email counts as verified only
 * when a verification claim names it.
 */

const MULTI_TENANT = new Set(["common", "organizations", "consumers"]);
const TENANT_PLACEHOLDER = "{tenantid}";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function mapMicrosoftClaims(claims: JsonRecord | null): ProviderProfile | null {
  const profile = profileFromOidcClaims(claims);
  if (!claims || !profile) return null;
  const email = profile.email;
  const listed = [...asArray(claims.verified_primary_email), ...asArray(claims.verified_secondary_email)];
  const verified =
    isTrue(claims.email_verified) || isTrue(claims.xms_edov) || listed.some((entry) => entry === email);
  return { ...profile, emailVerified: email !== null && verified };
}

/** `iss` check: exact for a single tenant; for multi-tenant, the template filled with the token's own `tid`. */
function microsoftIssuer(endpoints: ProviderEndpoints) {
  const template = endpoints.issuer ?? "";
  return (issuer: string, claims: JsonRecord) => {
    if (!template.includes(TENANT_PLACEHOLDER)) return issuer === template;
    const tid = asString(claims.tid);
    return (
      tid !== null && /^[0-9a-f-]{36}$/.test(tid) && issuer === template.replace(TENANT_PLACEHOLDER, tid)
    );
  };
}

export function createMicrosoftProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  const tenant = options.tenantId ?? "common";
  const base = `https://login.microsoftonline.com/${tenant}`;
  // Tokens name their tenant by id: only a tenant id gives an exact issuer. A multi-tenant value or a
  // domain ("contoso.onmicrosoft.com") checks `iss` against the token's own `tid` instead.
  const isTenantId = GUID.test(tenant) && !MULTI_TENANT.has(tenant);
  const issuerTenant = isTenantId ? tenant : TENANT_PLACEHOLDER;
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
      idToken: { toProfile: mapMicrosoftClaims, issuer: microsoftIssuer },
    },
    options,
    deps,
  );
}
