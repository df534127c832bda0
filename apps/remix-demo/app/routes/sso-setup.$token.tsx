import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { DoneNotice, Submit, useErrorText } from "~/components/form";
import { SsoConnections } from "~/components/sso-connections";
import { appCookieAttributes, readCookie } from "~/lib/cookies.server";
import { field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { loadSsoConnections, readSsoApiURL, runSsoIntent } from "~/lib/sso-page.server";

/**
 * The page an SSO setup link opens (issue 31 §2; the core's `sso.setupLinkPath`): the customer's IT
 * admin, with no account, sets up the single sign-on of one organization with the same form as its
 * owners (components/sso-connections.tsx). Opening spends the link, so the first visit asks for one
 * click (a POST): mail scanners and link previews fetch links with GET and would spend it otherwise.
 * The core's setup cookie is what authorizes every call; SETUP_ORGANIZATION_COOKIE only remembers
 * which organization the page is about and is never trusted for access.
 */
export const handle = { title: "ssoSetup.title" };

const SETUP_ORGANIZATION_COOKIE = "sso_setup_organization";

interface SetupOrganization {
  id: string;
  name: string;
  expiresAt: string;
}

function readSetupOrganization(request: Request): SetupOrganization | null {
  const raw = readCookie(request, SETUP_ORGANIZATION_COOKIE);
  if (!raw) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    return typeof value?.id === "string" &&
      typeof value?.name === "string" &&
      typeof value?.expiresAt === "string"
      ? value
      : null;
  } catch {
    return null;
  }
}

/** The organization the request's setup cookie manages, with its connections; null before opening. */
async function loadSetup(request: Request) {
  const organization = readSetupOrganization(request);
  if (!organization) return null;
  try {
    return {
      organization,
      connections: await loadSsoConnections(request.headers, organization.id),
      apiURL: await readSsoApiURL(),
    };
  } catch (error) {
    // No live setup cookie (never opened here, expired, replaced by a newer link): the core's 401.
    if (isAuthError(error)) return null;
    throw error;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const setup = await loadSetup(request);
  return setup ? { state: "open" as const, ...setup } : { state: "closed" as const };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const page = `/sso-setup/${encodeURIComponent(params.token ?? "")}`;
  if (field(form, "intent") === "open") return openLink(request, params.token ?? "", page);
  const setup = await loadSetup(request);
  if (!setup) return data({ refused: "SSO_SETUP_LINK_INVALID" }, { status: 400 });
  return runSsoIntent(form, {
    organizationId: setup.organization.id,
    page,
    headers: request.headers,
    canDelete: false,
  });
}

async function openLink(request: Request, token: string, page: string) {
  const auth = await getAuth();
  try {
    const opened = await auth.api.openSSOSetupLink({ body: { token }, headers: request.headers });
    const expiresAt = new Date(opened.data.expiresAt);
    const organization: SetupOrganization = {
      id: opened.data.organization.id,
      name: opened.data.organization.name,
      expiresAt: expiresAt.toISOString(),
    };
    const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    const value = Buffer.from(JSON.stringify(organization)).toString("base64url");
    const remembered = new Headers({
      "Set-Cookie": `${SETUP_ORGANIZATION_COOKIE}=${value}; ${appCookieAttributes("/sso-setup", maxAge)}`,
    });
    return redirectWith(page, opened.headers, remembered);
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return data({ refused: error.code }, { status: error.status });
  }
}

const OUTCOMES = {
  added: "organizations.sso.added",
  enabled: "organizations.sso.enabledNotice",
  disabled: "organizations.sso.disabledNotice",
};

function formatDateTime(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(lang, { dateStyle: "long", timeStyle: "short" });
}

export default function SsoSetup() {
  const { t, lang } = useT();
  const text = useErrorText();
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (answer && "refused" in answer) {
    return (
      <section aria-labelledby="setup-title" data-testid="setup-refused">
        <h1 id="setup-title">{t("ssoSetup.refusedTitle")}</h1>
        <p role="alert">{text(answer.refused)}</p>
        <p>{t("ssoSetup.askForNew")}</p>
      </section>
    );
  }
  if (loaded.state === "closed") {
    return (
      <section aria-labelledby="setup-title">
        <h1 id="setup-title">{t("ssoSetup.title")}</h1>
        <p>{t("ssoSetup.intro")}</p>
        <p>{t("ssoSetup.once")}</p>
        <Form method="post">
          <Submit intent="open">{t("ssoSetup.open")}</Submit>
        </Form>
      </section>
    );
  }
  const { organization, connections, apiURL } = loaded;
  return (
    <section aria-labelledby="setup-title">
      <h1 id="setup-title">{t("ssoSetup.openTitle", { organization: organization.name })}</h1>
      <DoneNotice outcomes={OUTCOMES} state={answer} />
      <p data-testid="setup-scope">
        {t("ssoSetup.scope", {
          organization: organization.name,
          date: formatDateTime(organization.expiresAt, lang),
        })}
      </p>
      <p>{t("organizations.sso.intro")}</p>
      <SsoConnections
        connections={connections}
        deleting={null}
        canDelete={false}
        answer={answer}
        apiURL={apiURL}
      />
    </section>
  );
}
