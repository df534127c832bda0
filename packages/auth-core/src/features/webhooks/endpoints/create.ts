import type { CreatedWebhookEndpoint } from "../../../contracts/webhook-models.ts";
import { createWebhookEndpointContract } from "../../../contracts/webhooks.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { typesFitScope } from "../rules.ts";
import { createEndpoint, isAcceptableWebhookUrl } from "../service.ts";
import { toWebhookEndpoint } from "../types.ts";
import { requireWebhookScope } from "./guards.ts";

/**
 * POST /webhooks/create {organizationId?, url, eventTypes?, description?} → {endpoint, secret}: the
 * `whsec_…` secret is answered this once and stored encrypted (docs/security.md "Webhooks").
 */
export const createWebhookEndpointEndpoint = defineEndpoint(createWebhookEndpointContract, {
  sensitive: true,
  async handler(ctx): Promise<CreatedWebhookEndpoint> {
    const { auth, body } = ctx;
    const scope = await requireWebhookScope(auth, ctx.session, body.organizationId);
    if (!isAcceptableWebhookUrl(auth, body.url)) throw new AuthError("INVALID_WEBHOOK_URL");
    if (!typesFitScope(scope, body.eventTypes)) throw new AuthError("WEBHOOK_EVENT_TYPE_NOT_ORGANIZATION");
    const { endpoint, secret } = await createEndpoint(auth, scope, body, ctx.session?.user._id ?? null);
    return { endpoint: toWebhookEndpoint(endpoint), secret };
  },
});
