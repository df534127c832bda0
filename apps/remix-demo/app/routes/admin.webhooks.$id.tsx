import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WebhookDeliveriesPage } from "~/components/webhook-deliveries";
import { requireAdmin } from "~/lib/session.server";
import { loadWebhookEndpointPage, runWebhookAction } from "~/lib/webhooks.server";

/** Admin → Webhooks → one endpoint: its recent deliveries, replay of one, a test event. */
export const handle = { title: "webhooks.deliveries" };

const SCOPE = { base: "/admin/webhooks" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return loadWebhookEndpointPage(request, SCOPE, params.id ?? "");
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return runWebhookAction(request, SCOPE);
}

export default function AdminWebhookDeliveries() {
  return <WebhookDeliveriesPage />;
}
