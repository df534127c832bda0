import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { DoneNotice } from "~/components/form";
import { SecurityNav } from "~/components/security-nav";
import { SsoConnections } from "~/components/sso-connections";
import { SsoSetupLinkForm } from "~/components/sso-setup-link";
import { failure, field, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";
import { loadSsoConnections, readSsoApiURL, runSsoIntent } from "~/lib/sso-page.server";

/**
 * The organization's single sign-on connections (issue 31 §2 "Self-serve setup"): add an OIDC or
 * SAML connection, read what to give the identity provider, test it, turn it on or off, delete it,
 * or send the customer's IT admin a setup link that opens the same form (routes/sso-setup.$token.tsx).
 * Secrets go in and never come back (contracts/sso-models.ts). Owners and admins only: the core
 * answers connections to no one else.
 */
export const handle = { title: "organizations.sso.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const manager = canManage(roles);
  const connections = manager ? await loadSsoConnections(request.headers, organization.id) : [];
  const deleting = new URL(request.url).searchParams.get("delete");
  return {
    slug: organization.slug,
    canManage: manager,
    connections,
    apiURL: await readSsoApiURL(),
    deleting: connections.some((connection) => connection.providerId === deleting) ? deleting : null,
  };
}

/** The setup link just made: shown once, in this answer only (the core keeps its hash). */
export interface SetupLinkAnswer {
  setupLink: { url: string; expiresAt: string };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const headers = request.headers;
  if (field(form, "intent") === "setup-link") {
    const email = field(form, "email").trim();
    try {
      const auth = await getAuth();
      const { data: link } = await auth.api.createSSOSetupLink({
        body: { organizationId: organization.id, ...(email ? { email } : {}) },
        headers,
      });
      const setupLink = { url: link.url, expiresAt: new Date(link.expiresAt).toISOString() };
      return data<SetupLinkAnswer>({ setupLink }, { headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      return failure(error, form, { VALIDATION_ERROR: "email", INVALID_EMAIL: "email" });
    }
  }
  const page = `/organizations/${organization.slug}/security/sso`;
  return runSsoIntent(form, { organizationId: organization.id, page, headers, canDelete: true });
}

const OUTCOMES = {
  added: "organizations.sso.added",
  enabled: "organizations.sso.enabledNotice",
  disabled: "organizations.sso.disabledNotice",
  deleted: "organizations.sso.deleted",
};

export default function SingleSignOn() {
  const { t } = useT();
  const { slug, canManage, connections, deleting, apiURL } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const setupLink = answer && "setupLink" in answer ? answer.setupLink : null;
  const linkState =
    answer && "errors" in answer && answer.values?.intent === "setup-link" ? answer : undefined;
  const connectionsAnswer = answer && !("setupLink" in answer) && !linkState ? answer : undefined;
  return (
    <section aria-labelledby="sso-title">
      <SecurityNav slug={slug} />
      <h2 id="sso-title">{t("organizations.sso.title")}</h2>
      <DoneNotice outcomes={OUTCOMES} state={answer} />
      <p>{t("organizations.sso.intro")}</p>
      {canManage ? (
        <>
          <SsoConnections
            connections={connections}
            deleting={deleting}
            canDelete
            answer={connectionsAnswer}
            apiURL={apiURL}
          />
          <SsoSetupLinkForm link={setupLink} state={linkState} />
        </>
      ) : (
        <p className="muted" data-testid="sso-read-only">
          {t("organizations.sso.readOnly")}
        </p>
      )}
    </section>
  );
}
