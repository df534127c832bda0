import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { CopyButton } from "~/components/copy-button";
import { DoneNotice, ErrorSummary, Field, Submit, useFieldProblem } from "~/components/form";
import { SecurityNav } from "~/components/security-nav";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";

/**
 * Organization → Security → Directory sync (issue 32 §1): the organization's SCIM connections, a
 * token made for one (shown once, with the base URL to paste into Entra ID or Okta), replaced or
 * revoked (confirmed). Owners and admins only: the core answers no one else, and a member reads why.
 */
export const handle = { title: "organizations.directory.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const manager = canManage(roles);
  const auth = await getAuth();
  const connections = manager
    ? (
        await auth.api.listScimProviderConnections({
          query: { organizationId: organization.id },
          headers: request.headers,
        })
      ).data.providers.map((connection) => ({
        providerId: connection.providerId,
        createdAt: new Date(connection.createdAt).toISOString(),
      }))
    : [];
  const revoking = new URL(request.url).searchParams.get("revoke");
  return {
    slug: organization.slug,
    canManage: manager,
    connections,
    revoking: connections.some((connection) => connection.providerId === revoking) ? revoking : null,
  };
}

/** The token just made: in this answer only (the core keeps its SHA-256). */
export interface ScimTokenAnswer {
  created: { providerId: string; token: string; baseUrl: string };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const providerId = field(form, "providerId").trim();
  const body = { organizationId: organization.id, providerId };
  if (providerId === "") return invalid({ providerId: "VALIDATION_ERROR" }, form);
  try {
    if (intent === "create") {
      const { data: made } = await auth.api.generateScimToken({ body, headers: request.headers });
      const created = {
        providerId: made.providerId,
        token: made.scimToken,
        baseUrl: `${auth.context.apiURL}/scim/v2`,
      };
      return data<ScimTokenAnswer>({ created }, { headers: { "Cache-Control": "no-store" } });
    }
    if (intent === "revoke") {
      await auth.api.deleteScimProviderConnection({ body, headers: request.headers });
      return redirectWith(`/organizations/${organization.slug}/security/directory?done=revoked`);
    }
    return invalid({ form: "VALIDATION_ERROR" }, form);
  } catch (error) {
    return failure(error, form, { VALIDATION_ERROR: intent === "create" ? "providerId" : "form" });
  }
}

function formatDate(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(lang, { dateStyle: "long", timeStyle: "short" });
}

export default function DirectorySync() {
  const { t, lang } = useT();
  const location = useLocation();
  const { slug, canManage, connections, revoking } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const created = answer && "created" in answer ? answer.created : null;
  const state = answer && "errors" in answer ? answer : undefined;
  // A refusal of the whole request (not a manager, session not fresh…) shows above everything, for
  // members too; a refused name shows in the add form.
  const problem = useFieldProblem()(state, "form");
  const nameState = state?.errors?.providerId ? state : undefined;
  const label = t("organizations.directory.name");
  return (
    <section aria-labelledby="directory-title">
      <SecurityNav slug={slug} />
      <h2 id="directory-title">{t("organizations.directory.title")}</h2>
      <DoneNotice outcomes={{ revoked: "organizations.directory.revoked" }} state={answer} />
      <p>{t("organizations.directory.intro")}</p>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {!canManage ? (
        <p className="muted" data-testid="directory-read-only">
          {t("organizations.directory.readOnly")}
        </p>
      ) : (
        <>
          {created ? <CreatedToken {...created} /> : null}
          {connections.length === 0 ? <p>{t("organizations.directory.none")}</p> : null}
          {connections.map(({ providerId, createdAt }) => (
            <article
              className="card"
              key={providerId}
              aria-labelledby={`scim-${providerId}`}
              data-provider={providerId}
            >
              <h3 id={`scim-${providerId}`}>{providerId}</h3>
              <p>{t("organizations.directory.createdAt", { date: formatDate(createdAt, lang) })}</p>
              {revoking === providerId ? (
                <Form method="post" className="danger-zone">
                  <p className="warning">{t("organizations.directory.revokeWarning", { providerId })}</p>
                  <input type="hidden" name="providerId" value={providerId} />
                  <Submit intent="revoke" className="button button-danger">
                    {t("organizations.directory.revokeConfirm", { providerId })}
                  </Submit>{" "}
                  <Link to="?">{t("common.cancel")}</Link>
                </Form>
              ) : (
                <Form method="post" className="actions">
                  <input type="hidden" name="providerId" value={providerId} />
                  <Submit intent="create" className="button button-secondary">
                    {t("organizations.directory.rotate", { providerId })}
                  </Submit>{" "}
                  <Link to={`?revoke=${encodeURIComponent(providerId)}`}>
                    {t("organizations.directory.revoke", { providerId })}
                  </Link>
                </Form>
              )}
            </article>
          ))}
          <Form method="post" noValidate key={location.key}>
            <h3>{t("organizations.directory.addTitle")}</h3>
            <ErrorSummary state={nameState} labels={{ providerId: label }} />
            <Field
              name="providerId"
              label={label}
              hint={t("organizations.directory.nameHint")}
              state={nameState}
              autoComplete="off"
            />
            <Submit intent="create">{t("organizations.directory.create")}</Submit>
          </Form>
        </>
      )}
    </section>
  );
}

/** The token and where it goes, once. */
function CreatedToken({ providerId, token, baseUrl }: ScimTokenAnswer["created"]) {
  const { t } = useT();
  const rows = [
    ["baseUrl", baseUrl],
    ["token", token],
  ] as const;
  return (
    <div className="notice" role="status" data-testid="scim-token">
      <p>{t("organizations.directory.created", { providerId })}</p>
      <dl className="proof">
        {rows.map(([name, value]) => (
          <div key={name} className="proof-row">
            <dt>{t(`organizations.directory.${name}`)}</dt>
            <dd>
              <code data-testid={`scim-${name}`}>{value}</code>{" "}
              <CopyButton text={value} label={t("organizations.domains.copy")} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
