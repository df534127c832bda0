import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { EVENT_TYPES } from "@tessera/auth-core";
import { type WebhookAnswer, WebhookEndpoints, WebhookRefusal } from "~/components/webhook-endpoints";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";
import { loadWebhookEndpoints, refusePage, runWebhookAction } from "~/lib/webhooks.server";

/**
 * Admin → Webhooks (issue 33 §3): the app-wide endpoints, which receive every organization's
 * events. Add (the `whsec_…` secret shown once), enable or disable, rotate the secret, send a test
 * event, delete after a confirmation; each endpoint's deliveries on its own page.
 */
export const handle = { title: "admin.tabs.webhooks" };

const SCOPE = { base: "/admin/webhooks" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  try {
    const endpoints = await loadWebhookEndpoints(request, SCOPE);
    const deleting = new URL(request.url).searchParams.get("delete");
    return {
      refusal: null,
      eventTypes: EVENT_TYPES,
      endpoints,
      deleting: endpoints.some((endpoint) => endpoint.id === deleting) ? deleting : null,
    };
  } catch (error) {
    return refusePage(error);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return runWebhookAction(request, SCOPE);
}

export default function AdminWebhooks() {
  const { t } = useT();
  const location = useLocation();
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as WebhookAnswer;
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t("webhooks.adminTitle")}</h2>
      {"endpoints" in loaded && loaded.refusal === null ? (
        <WebhookEndpoints
          base={SCOPE.base}
          endpoints={loaded.endpoints}
          eventTypes={loaded.eventTypes}
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
