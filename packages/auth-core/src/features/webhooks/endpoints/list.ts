import type { WebhookEndpoint } from "../../../contracts/webhook-models.ts";
import { listWebhookEndpointsContract } from "../../../contracts/webhooks.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listEndpoints } from "../service.ts";
import { toWebhookEndpoint } from "../types.ts";
import { requireWebhookScope } from "./guards.ts";

/** GET /webhooks/list?organizationId → the scope's endpoints, oldest first, without secrets. */
export const listWebhookEndpointsEndpoint = defineEndpoint(listWebhookEndpointsContract, {
  sensitive: true,
  async handler(ctx): Promise<WebhookEndpoint[]> {
    const scope = await requireWebhookScope(ctx.auth, ctx.session, ctx.query.organizationId);
    return (await listEndpoints(ctx.auth, scope)).map(toWebhookEndpoint);
  },
});
