import type { WebhookDelivery } from "../../../contracts/webhook-models.ts";
import { listWebhookDeliveriesContract } from "../../../contracts/webhooks.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listDeliveries } from "../service.ts";
import { toWebhookDelivery } from "../types.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/** GET /webhooks/deliveries?organizationId&endpointId&limit → its deliveries, newest first (≤ 100). */
export const listWebhookDeliveriesEndpoint = defineEndpoint(listWebhookDeliveriesContract, {
  sensitive: true,
  async handler(ctx): Promise<WebhookDelivery[]> {
    const { auth, query } = ctx;
    const scope = await requireWebhookScope(auth, ctx.session, query.organizationId);
    const endpoint = await requireScopedEndpoint(auth, scope, query.endpointId);
    return (await listDeliveries(auth, endpoint, query.limit ?? 50)).map(toWebhookDelivery);
  },
});
