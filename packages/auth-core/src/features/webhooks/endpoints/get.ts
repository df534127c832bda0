import type { WebhookEndpoint } from "../../../contracts/webhook-models.ts";
import { getWebhookEndpointContract } from "../../../contracts/webhooks.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { toWebhookEndpoint } from "../types.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/** GET /webhooks/get?organizationId&endpointId → the endpoint; 404 outside the caller's scope. */
export const getWebhookEndpointEndpoint = defineEndpoint(getWebhookEndpointContract, {
  sensitive: true,
  async handler(ctx): Promise<WebhookEndpoint> {
    const scope = await requireWebhookScope(ctx.auth, ctx.session, ctx.query.organizationId);
    return toWebhookEndpoint(await requireScopedEndpoint(ctx.auth, scope, ctx.query.endpointId));
  },
});
