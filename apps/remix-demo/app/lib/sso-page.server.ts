import { data } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import type { SsoConnectionView } from "~/components/sso-connection";
import { failure, field, invalid, redirectWith } from "./forms.server";
import { readRegisterForm } from "./sso-connections.server";

/**
 * The SSO connections page's loader and action parts, shared by Organization → Security → Single
 * sign-on (a signed-in owner or admin) and the setup link's page (routes/sso-setup.$token.tsx: its
 * holder, no account, one organization, no delete). The core decides who may do what; these only
 * shape its answers for the page.
 */

/** The organization's connections as the page shows them; the core answers only a manager's. */
export async function loadSsoConnections(
  headers: Headers,
  organizationId: string,
): Promise<SsoConnectionView[]> {
  const auth = await getAuth();
  const { providers } = (await auth.api.listSSOProviders({ headers })).data;
  return providers
    .filter((provider) => provider.organizationId === organizationId)
    .map((provider) => ({
      providerId: provider.providerId,
      type: provider.type,
      issuer: provider.issuer,
      domain: provider.domain,
      domainVerified: provider.domainVerified,
      enabled: provider.enabled,
      redirectURI: provider.redirectURI,
      spMetadataUrl: provider.spMetadataUrl,
      acsUrl: provider.redirectURI.replace(/\/sso\/callback\/([^/]+)$/, "/sso/saml2/sp/acs/$1"),
      clientIdLastFour: provider.oidcConfig?.clientIdLastFour ?? null,
      entryPoint: provider.samlConfig?.entryPoint ?? null,
    }));
}

/** The core's API base, from which the add form works out the addresses to give the IdP. */
export async function readSsoApiURL(): Promise<string> {
  return (await getAuth()).context.apiURL;
}

/** What "Test this connection" answers the page: the checks passed, or the first problem's code. */
interface SsoTestAnswer {
  tested: { providerId: string; checks: string[] | null; code: string | null; expiresAt: string | null };
}

/** The intents both pages share: add, test, enable, disable, and delete where `canDelete`. */
export async function runSsoIntent(
  form: FormData,
  {
    organizationId,
    page,
    headers,
    canDelete,
  }: { organizationId: string; page: string; headers: Headers; canDelete: boolean },
) {
  const auth = await getAuth();
  const intent = field(form, "intent");
  const providerId = field(form, "providerId").trim();
  try {
    if (intent === "add") {
      const read = readRegisterForm(form, organizationId);
      if ("missing" in read) return invalid(read.missing, form);
      await auth.api.registerSSOProvider({ body: read.body, headers });
      return redirectWith(`${page}?done=added`);
    }
    if (intent === "test") return await testConnection(providerId, headers);
    if (intent === "enable" || intent === "disable") {
      await auth.api.updateSSOProvider({ body: { providerId, enabled: intent === "enable" }, headers });
      return redirectWith(`${page}?done=${intent}d`);
    }
    if (intent === "delete" && canDelete) {
      await auth.api.deleteSSOProvider({ body: { providerId }, headers });
      return redirectWith(`${page}?done=deleted`);
    }
    return invalid({ form: "VALIDATION_ERROR" }, form);
  } catch (error) {
    return failure(error, form, intent === "add" ? REGISTER_FIELDS : {});
  }
}

async function testConnection(providerId: string, headers: Headers) {
  const auth = await getAuth();
  try {
    const { data: result } = await auth.api.testSSOProvider({ body: { providerId }, headers });
    return data<SsoTestAnswer>({
      tested: {
        providerId,
        checks: result.checks,
        code: null,
        expiresAt: result.certificateExpiresAt ?? null,
      },
    });
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return data<SsoTestAnswer>(
      { tested: { providerId, checks: null, code: error.code, expiresAt: null } },
      { status: 400 },
    );
  }
}

/** Which field of the add form each refusal concerns. */
const REGISTER_FIELDS = {
  SSO_PROVIDER_ID_TAKEN: "providerId",
  SSO_PROVIDER_ID_RESERVED: "providerId",
  INVALID_DOMAIN: "domain",
  SSO_URL_NOT_ALLOWED: "issuer",
  SSO_DISCOVERY_FAILED: "issuer",
  SSO_DISCOVERY_INVALID: "issuer",
  SSO_JWKS_HOST_MISMATCH: "issuer",
  SAML_CERTIFICATE_INVALID: "cert",
  SAML_CERTIFICATE_EXPIRED: "cert",
};
