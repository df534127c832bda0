import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import type { FormState } from "~/components/form";
import { WebhookDeliveries } from "~/components/webhook-deliveries";
import { WebhookRefusal } from "~/components/webhook-endpoints";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";
import { loadWebhookDeliveries, refusePage, runWebhookAction } from "~/lib/webhooks.server";

/** Admin → Webhooks → one endpoint: its recent deliveries, replay of one, a test event. */
export const handle = { title: "webhooks.deliveries" };

const SCOPE = { base: "/admin/webhooks" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const endpointId = params.id ?? "";
  try {
    const { data: endpoint } = await (await getAuth()).api.getWebhookEndpoint({
      query: { endpointId },
      headers: request.headers,
    });
    const deliveries = await loadWebhookDeliveries(request, SCOPE, endpointId);
    return {
      refusal: null,
      endpoint: { id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled },
      deliveries,
    };
  } catch (error) {
    return refusePage(error);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return runWebhookAction(request, SCOPE);
}

export default function AdminWebhookDeliveries() {
  const { t } = useT();
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as FormState | undefined;
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{t("webhooks.deliveries")}</h2>
      {"endpoint" in loaded && loaded.refusal === null ? (
        <WebhookDeliveries
          base={SCOPE.base}
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
