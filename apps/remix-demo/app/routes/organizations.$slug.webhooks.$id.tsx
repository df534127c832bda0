import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import type { FormState } from "~/components/form";
import { WebhookDeliveries } from "~/components/webhook-deliveries";
import { WebhookRefusal } from "~/components/webhook-endpoints";
import { useT } from "~/lib/i18n";
import { requireOrganization } from "~/lib/org.server";
import { loadWebhookDeliveries, refusePage, runWebhookAction } from "~/lib/webhooks.server";

/** Organization → Webhooks → one endpoint: its recent deliveries, replay of one, a test event. */
export const handle = { title: "webhooks.deliveries" };

async function scopeOf(request: Request, slug: string | undefined) {
  const { organization } = await requireOrganization(request, slug);
  return { organizationId: organization.id, base: `/organizations/${organization.slug}/webhooks` };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const scope = await scopeOf(request, params.slug);
  const endpointId = params.id ?? "";
  try {
    const { data: endpoint } = await (await getAuth()).api.getWebhookEndpoint({
      query: { organizationId: scope.organizationId, endpointId },
      headers: request.headers,
    });
    const deliveries = await loadWebhookDeliveries(request, scope, endpointId);
    return {
      refusal: null,
      base: scope.base,
      endpoint: { id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled },
      deliveries,
    };
  } catch (error) {
    return refusePage(error);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  return runWebhookAction(request, await scopeOf(request, params.slug));
}

export default function OrganizationWebhookDeliveries() {
  const { t } = useT();
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as FormState | undefined;
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
