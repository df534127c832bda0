import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { EVENT_TYPES } from "@tessera/auth-core";
import { type WebhookAnswer, WebhookEndpoints, WebhookRefusal } from "~/components/webhook-endpoints";
import { useT } from "~/lib/i18n";
import { requireOrganization } from "~/lib/org.server";
import { loadWebhookEndpoints, refusePage, runWebhookAction } from "~/lib/webhooks.server";

/**
 * Organization → Webhooks (issue 33 §3): this organization's endpoints, which receive its events
 * only. Its owners and admins manage them (features/webhooks guards); anyone else reads the core's
 * refusal, and the tab is not offered to them.
 */
export const handle = { title: "webhooks.organizationTitle" };

async function scopeOf(request: Request, slug: string | undefined) {
  const { organization } = await requireOrganization(request, slug);
  return { organizationId: organization.id, base: `/organizations/${organization.slug}/webhooks` };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const scope = await scopeOf(request, params.slug);
  try {
    const endpoints = await loadWebhookEndpoints(request, scope);
    const deleting = new URL(request.url).searchParams.get("delete");
    return {
      refusal: null,
      eventTypes: EVENT_TYPES,
      base: scope.base,
      endpoints,
      deleting: endpoints.some((endpoint) => endpoint.id === deleting) ? deleting : null,
    };
  } catch (error) {
    return refusePage(error);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  return runWebhookAction(request, await scopeOf(request, params.slug));
}

export default function OrganizationWebhooks() {
  const { t } = useT();
  const location = useLocation();
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as WebhookAnswer;
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t("webhooks.organizationTitle")}</h2>
      {"endpoints" in loaded && loaded.refusal === null ? (
        <WebhookEndpoints
          base={loaded.base}
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
