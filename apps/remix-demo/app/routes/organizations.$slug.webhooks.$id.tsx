import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WebhookDeliveriesPage } from "~/components/webhook-deliveries";
import { loadWebhookEndpointPage, organizationWebhookScope, runWebhookAction } from "~/lib/webhooks.server";

/** Organization → Webhooks → one endpoint: its recent deliveries, replay of one, a test event. */
export const handle = { title: "webhooks.deliveries" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const scope = await organizationWebhookScope(request, params.slug);
  return loadWebhookEndpointPage(request, scope, params.id ?? "");
}

export async function action({ request, params }: ActionFunctionArgs) {
  return runWebhookAction(request, await organizationWebhookScope(request, params.slug));
}

export default function OrganizationWebhookDeliveries() {
  return <WebhookDeliveriesPage />;
}
