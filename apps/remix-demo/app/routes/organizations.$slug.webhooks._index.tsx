import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WebhookEndpointsPage } from "~/components/webhook-endpoints";
import { loadWebhookListPage, organizationWebhookScope, runWebhookAction } from "~/lib/webhooks.server";

/**
 * Organization → Webhooks (issue 33 §3): this organization's endpoints, which receive its events
 * only. Its owners and admins manage them (features/webhooks guards); anyone else reads the core's
 * refusal, and the tab is not offered to them.
 */
export const handle = { title: "webhooks.organizationTitle" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadWebhookListPage(request, await organizationWebhookScope(request, params.slug));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return runWebhookAction(request, await organizationWebhookScope(request, params.slug));
}

export default function OrganizationWebhooks() {
  return <WebhookEndpointsPage title="webhooks.organizationTitle" intro="webhooks.organizationIntro" />;
}
