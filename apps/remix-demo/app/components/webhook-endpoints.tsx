import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import type { loadWebhookListPage, SecretAnswer, WebhookEndpointView } from "~/lib/webhooks.server";
import { CopyButton } from "./copy-button";
import { DoneNotice, ErrorSummary, Field, type FormState, Submit, useErrorText } from "./form";

export const WEBHOOK_OUTCOMES = {
  enabled: "webhooks.enabledNotice",
  disabled: "webhooks.disabledNotice",
  deleted: "webhooks.deletedNotice",
  tested: "webhooks.testedNotice",
  replayed: "webhooks.replayedNotice",
};

/** An action's answer on these pages: a refused form, or a secret to show once. */
type WebhookAnswer = (FormState & Partial<SecretAnswer>) | undefined;

/** The core refused the page (not allowed to manage, webhooks off): its message, translated. */
export function WebhookRefusal({ code }: { code: string }) {
  const text = useErrorText();
  return (
    <p className="warning" role="alert" data-testid="webhooks-refused">
      {text(code)}
    </p>
  );
}

/** Admin → Webhooks and Organization → Webhooks: the route's loader is lib/webhooks.server.ts loadWebhookListPage. */
export function WebhookEndpointsPage({ title, intro }: { title: string; intro: string }) {
  const { t } = useT();
  const location = useLocation();
  const loaded = useLoaderData<typeof loadWebhookListPage>();
  const answer = useActionData() as WebhookAnswer;
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t(title)}</h2>
      {"endpoints" in loaded && loaded.refusal === null ? (
        <WebhookEndpoints
          base={loaded.base}
          endpoints={loaded.endpoints}
          eventTypes={loaded.eventTypes}
          intro={intro}
          deleting={loaded.deleting}
          answer={answer}
          formKey={location.key}
        />
      ) : (
        <WebhookRefusal code={loaded.refusal} />
      )}
    </section>
  );
}

/** The endpoints of a scope, the secret just made (once), the add form. */
function WebhookEndpoints({
  base,
  endpoints,
  eventTypes,
  intro,
  deleting,
  answer,
  formKey,
}: {
  base: string;
  endpoints: WebhookEndpointView[];
  eventTypes: readonly string[];
  /** What the scope's endpoints receive: every change (the app's), or the organization's. */
  intro: string;
  deleting: string | null;
  answer: WebhookAnswer;
  formKey: string;
}) {
  const { t } = useT();
  const adding = answer?.values?.intent === "add" ? answer : undefined;
  const rowProblem = answer?.errors && !adding ? answer : undefined;
  return (
    <>
      <DoneNotice outcomes={WEBHOOK_OUTCOMES} state={answer} />
      <p>{t(intro)}</p>
      {answer?.secret ? <SecretShownOnce secret={answer.secret} /> : null}
      <ErrorSummary state={rowProblem} />
      {endpoints.length === 0 ? <p>{t("webhooks.none")}</p> : null}
      {endpoints.map((endpoint) => (
        <EndpointCard key={endpoint.id} base={base} endpoint={endpoint} deleting={deleting === endpoint.id} />
      ))}
      <h3 id="webhook-add-title">{t("webhooks.addTitle")}</h3>
      <Form method="post" noValidate key={formKey} aria-labelledby="webhook-add-title">
        <ErrorSummary state={adding} labels={{ url: t("webhooks.fields.url") }} />
        <Field
          name="url"
          type="url"
          label={t("webhooks.fields.url")}
          hint={t("webhooks.fields.urlHint")}
          state={adding}
          required
          autoComplete="off"
        />
        <Field name="description" label={t("webhooks.fields.description")} state={adding} />
        <fieldset className="event-types">
          <legend>{t("webhooks.fields.eventTypes")}</legend>
          <p className="hint">{t("webhooks.fields.eventTypesHint")}</p>
          <div className="checkbox-grid">
            {eventTypes.map((type) => (
              <div className="checkbox" key={type}>
                <input id={`event-${type}`} type="checkbox" name="eventTypes" value={type} />
                <label htmlFor={`event-${type}`}>
                  <code>{type}</code>
                </label>
              </div>
            ))}
          </div>
        </fieldset>
        <Submit intent="add">{t("webhooks.add")}</Submit>
      </Form>
    </>
  );
}

function SecretShownOnce({ secret }: { secret: SecretAnswer["secret"] }) {
  const { t, lang } = useT();
  const until = secret.previousUntil
    ? new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(
        new Date(secret.previousUntil),
      )
    : null;
  return (
    <div className="notice webhook-secret" role="status" data-testid="webhook-secret">
      <p>{t(secret.kind === "created" ? "webhooks.createdSecret" : "webhooks.rotatedSecret")}</p>
      <div className="field">
        <label htmlFor="webhook-secret-value">{t("webhooks.secret")}</label>
        <input id="webhook-secret-value" className="secret-field" readOnly value={secret.value} />{" "}
        <CopyButton text={secret.value} label={t("webhooks.copySecret")} />
      </div>
      {until ? <p>{t("webhooks.previousKeepsWorking", { until })}</p> : null}
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useT();
  const tone =
    status === "delivered" ? "badge-verified" : status === "pending" ? "badge-pending" : "badge-expired";
  return <span className={`badge ${tone}`}>{t(`webhooks.status.${status}`, { defaultValue: status })}</span>;
}

function EndpointCard({
  base,
  endpoint,
  deleting,
}: {
  base: string;
  endpoint: WebhookEndpointView;
  deleting: boolean;
}) {
  const { t } = useT();
  const id = endpoint.id;
  return (
    <article className="card connection webhook" aria-labelledby={`endpoint-${id}`} data-endpoint={id}>
      <h3 id={`endpoint-${id}`} className="break">
        {endpoint.url}{" "}
        <span className={endpoint.enabled ? "badge badge-verified" : "badge badge-pending"}>
          {t(endpoint.enabled ? "webhooks.on" : "webhooks.off")}
        </span>
      </h3>
      <dl className="facts">
        {endpoint.description ? (
          <>
            <dt>{t("webhooks.description")}</dt>
            <dd>{endpoint.description}</dd>
          </>
        ) : null}
        <dt>{t("webhooks.fields.eventTypes")}</dt>
        <dd>{endpoint.eventTypes.length === 0 ? t("webhooks.allEvents") : endpoint.eventTypes.join(", ")}</dd>
        <dt>{t("webhooks.lastDelivery")}</dt>
        <dd data-testid="last-delivery">
          {endpoint.lastDelivery ? (
            <>
              <StatusBadge status={endpoint.lastDelivery.status} /> {endpoint.lastDelivery.statusCode ?? ""}
            </>
          ) : (
            t("webhooks.noDeliveries")
          )}
        </dd>
        {endpoint.disabledReason ? (
          <>
            <dt>{t("webhooks.disabledBecause")}</dt>
            <dd>{endpoint.disabledReason}</dd>
          </>
        ) : null}
      </dl>
      <Form method="post" className="actions">
        <input type="hidden" name="endpointId" value={id} />
        <Submit intent="test" className="button button-secondary">
          {t("webhooks.test")}
        </Submit>
        <Submit intent={endpoint.enabled ? "disable" : "enable"} className="button button-secondary">
          {t(endpoint.enabled ? "webhooks.disable" : "webhooks.enable")}
        </Submit>
        <Submit intent="rotate" className="button button-secondary">
          {t("webhooks.rotate")}
        </Submit>
        <Link className="button button-secondary" to={`${base}/${id}`}>
          {t("webhooks.deliveries")}
        </Link>
      </Form>
      {deleting ? (
        <Form method="post" className="danger-zone">
          <p className="warning">{t("webhooks.deleteWarning", { url: endpoint.url })}</p>
          <input type="hidden" name="endpointId" value={id} />
          <Submit intent="delete" className="button button-danger">
            {t("webhooks.deleteConfirm")}
          </Submit>{" "}
          <Link to="?">{t("common.cancel")}</Link>
        </Form>
      ) : (
        <p>
          <Link to={`?delete=${encodeURIComponent(id)}`}>{t("webhooks.delete")}</Link>
        </p>
      )}
    </article>
  );
}
