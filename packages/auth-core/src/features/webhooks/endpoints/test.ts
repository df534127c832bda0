import type { WebhookDelivery } from "../../../contracts/webhook-models.ts";
import { testWebhookEndpointContract } from "../../../contracts/webhooks.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { queueTestDelivery } from "../service.ts";
import { toWebhookDelivery } from "../types.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/** POST /webhooks/test {organizationId?, endpointId} → the queued `webhook.test` delivery. */
export const testWebhookEndpointEndpoint = defineEndpoint(testWebhookEndpointContract, {
  sensitive: true,
  async handler(ctx): Promise<WebhookDelivery> {
    const scope = await requireWebhookScope(ctx.auth, ctx.session, ctx.body.organizationId);
    const endpoint = await requireScopedEndpoint(ctx.auth, scope, ctx.body.endpointId);
    return toWebhookDelivery(await queueTestDelivery(ctx.auth, endpoint));
  },
});
