import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { DoneNotice } from "~/components/form";
import { SecurityNav } from "~/components/security-nav";
import { SsoConnectionCard, type SsoConnectionView } from "~/components/sso-connection";
import { SsoConnectionForm } from "~/components/sso-connection-form";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";
import { readRegisterForm } from "~/lib/sso-connections.server";

/**
 * The organization's single sign-on connections (issue 31 §2 "Self-serve setup"): add an OIDC or
 * SAML connection, read what to give the identity provider, test it, turn it on or off, delete it.
 * Secrets go in and never come back (contracts/sso-models.ts). Owners and admins only: the core
 * answers connections to no one else.
 */
export const handle = { title: "organizations.sso.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const manager = canManage(roles);
  const auth = await getAuth();
  const providers = manager
    ? (await auth.api.listSSOProviders({ headers: request.headers })).data.providers
    : [];
  const connections: SsoConnectionView[] = providers
    .filter((provider) => provider.organizationId === organization.id)
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
  const deleting = new URL(request.url).searchParams.get("delete");
  return {
    slug: organization.slug,
    canManage: manager,
    connections,
    deleting: connections.some((connection) => connection.providerId === deleting) ? deleting : null,
  };
}

/** What "Test this connection" answers the page: the checks passed, or the first problem's code. */
export interface SsoTestAnswer {
  tested: { providerId: string; checks: string[] | null; code: string | null };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const providerId = field(form, "providerId").trim();
  const page = `/organizations/${organization.slug}/security/sso`;
  const headers = request.headers;
  try {
    if (intent === "add") {
      const read = readRegisterForm(form, organization.id);
      if ("missing" in read) return invalid(read.missing, form);
      await auth.api.registerSSOProvider({ body: read.body, headers });
      return redirectWith(`${page}?done=added`);
    }
    if (intent === "test") return await testConnection(providerId, headers);
    if (intent === "enable" || intent === "disable") {
      await auth.api.updateSSOProvider({ body: { providerId, enabled: intent === "enable" }, headers });
      return redirectWith(`${page}?done=${intent}d`);
    }
    if (intent === "delete") {
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
    return data<SsoTestAnswer>({ tested: { providerId, checks: result.checks, code: null } });
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return data<SsoTestAnswer>({ tested: { providerId, checks: null, code: error.code } }, { status: 400 });
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
};

const OUTCOMES = {
  added: "organizations.sso.added",
  enabled: "organizations.sso.enabledNotice",
  disabled: "organizations.sso.disabledNotice",
  deleted: "organizations.sso.deleted",
};

export default function SingleSignOn() {
  const { t } = useT();
  const location = useLocation();
  const { slug, canManage, connections, deleting } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const tested = answer && "tested" in answer ? answer.tested : null;
  const state = answer && "errors" in answer ? answer : undefined;
  const failedOn = state?.values?.intent !== "add" ? state?.values?.providerId : undefined;
  return (
    <section aria-labelledby="sso-title">
      <SecurityNav slug={slug} />
      <h2 id="sso-title">{t("organizations.sso.title")}</h2>
      <DoneNotice outcomes={OUTCOMES} state={answer} />
      <p>{t("organizations.sso.intro")}</p>
      {canManage ? null : (
        <p className="muted" data-testid="sso-read-only">
          {t("organizations.sso.readOnly")}
        </p>
      )}
      {canManage && connections.length === 0 ? <p>{t("organizations.sso.none")}</p> : null}
      {connections.map((connection) => (
        <SsoConnectionCard
          key={connection.providerId}
          connection={connection}
          deleting={deleting === connection.providerId}
          tested={tested?.providerId === connection.providerId ? tested : null}
          state={failedOn === connection.providerId ? state : undefined}
        />
      ))}
      {canManage ? (
        <SsoConnectionForm state={state?.values?.intent === "add" ? state : undefined} key={location.key} />
      ) : null}
    </section>
  );
}
