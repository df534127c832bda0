import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WebhookEndpointsPage } from "~/components/webhook-endpoints";
import { requireAdmin } from "~/lib/session.server";
import { loadWebhookListPage, runWebhookAction } from "~/lib/webhooks.server";

/**
 * Admin → Webhooks (issue 33 §3): the app-wide endpoints, which receive every organization's
 * events. Add (the `whsec_…` secret shown once), enable or disable, rotate the secret, send a test
 * event, delete after a confirmation; each endpoint's deliveries on its own page.
 */
export const handle = { title: "admin.tabs.webhooks" };

const SCOPE = { base: "/admin/webhooks" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return loadWebhookListPage(request, SCOPE);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return runWebhookAction(request, SCOPE);
}

export default function AdminWebhooks() {
  return <WebhookEndpointsPage title="webhooks.adminTitle" intro="webhooks.intro" />;
}
