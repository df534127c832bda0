import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import type { loadWebhookEndpointPage, WebhookDeliveryView } from "~/lib/webhooks.server";
import { TableScroll } from "./activity-tables";
import { DoneNotice, ErrorSummary, type FormState, Submit } from "./form";
import { StatusBadge, WEBHOOK_OUTCOMES, WebhookRefusal } from "./webhook-endpoints";

/** An endpoint's page in both scopes: the route's loader is lib/webhooks.server.ts loadWebhookEndpointPage. */
export function WebhookDeliveriesPage() {
  const { t } = useT();
  const loaded = useLoaderData<typeof loadWebhookEndpointPage>();
  const answer = useActionData() as FormState | undefined;
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{t("webhooks.deliveries")}</h2>
      {"endpoint" in loaded && loaded.refusal === null ? (
        <WebhookDeliveries
          base={loaded.base}
          endpoint={loaded.endpoint}
          deliveries={loaded.deliveries}
          answer={answer}
        />
      ) : (
        <WebhookRefusal code={loaded.refusal} />
      )}
    </section>
  );
}

/** One endpoint's recent deliveries (newest first), each with its replay; a test event on request. */
function WebhookDeliveries({
  base,
  endpoint,
  deliveries,
  answer,
}: {
  base: string;
  endpoint: { id: string; url: string; enabled: boolean };
  deliveries: WebhookDeliveryView[];
  answer: FormState | undefined;
}) {
  const { t, lang } = useT();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "medium" });
  return (
    <>
      <p>
        <Link to={base}>{t("webhooks.back")}</Link>
      </p>
      <h3 className="break" data-testid="endpoint-url">
        {endpoint.url}
      </h3>
      <DoneNotice outcomes={WEBHOOK_OUTCOMES} state={answer} />
      <ErrorSummary state={answer} />
      <Form method="post" className="actions">
        <input type="hidden" name="endpointId" value={endpoint.id} />
        <Submit intent="test" className="button button-secondary">
          {t("webhooks.test")}
        </Submit>
        <Link className="button button-secondary" to=".">
          {t("webhooks.refresh")}
        </Link>
      </Form>
      <TableScroll label={t("webhooks.deliveries")}>
        <table className="deliveries">
          <caption className="muted">{t("webhooks.deliveriesCaption", { total: deliveries.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("webhooks.columns.when")}</th>
              <th scope="col">{t("webhooks.columns.eventType")}</th>
              <th scope="col">{t("webhooks.columns.status")}</th>
              <th scope="col">{t("webhooks.columns.responseCode")}</th>
              <th scope="col">{t("webhooks.columns.duration")}</th>
              <th scope="col">{t("webhooks.columns.attempts")}</th>
              <th scope="col">{t("webhooks.columns.nextRetry")}</th>
              <th scope="col">{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id} data-delivery={delivery.id}>
                <td>{format.format(new Date(delivery.createdAt))}</td>
                <td>
                  <code>{delivery.eventType}</code>
                </td>
                <td>
                  <StatusBadge status={delivery.status} />
                </td>
                <td data-testid="response-code">{delivery.statusCode ?? delivery.error ?? "—"}</td>
                <td>{delivery.durationMs === null ? "—" : t("webhooks.ms", { ms: delivery.durationMs })}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.nextAttemptAt ? format.format(new Date(delivery.nextAttemptAt)) : "—"}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="endpointId" value={endpoint.id} />
                    <input type="hidden" name="deliveryId" value={delivery.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="replay"
                      className="button button-small button-secondary"
                    >
                      {t("webhooks.replay")}
                      <span className="visually-hidden"> {delivery.eventType}</span>
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {deliveries.length === 0 ? <p>{t("webhooks.noDeliveries")}</p> : null}
    </>
  );
}
