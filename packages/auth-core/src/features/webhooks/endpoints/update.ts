import type { WebhookEndpoint } from "../../../contracts/webhook-models.ts";
import { updateWebhookEndpointContract } from "../../../contracts/webhooks.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { typesFitScope } from "../rules.ts";
import { isAcceptableWebhookUrl, updateEndpoint } from "../service.ts";
import { toWebhookEndpoint } from "../types.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/**
 * POST /webhooks/update {organizationId?, endpointId, url?, eventTypes?, description?, enabled?} →
 * the endpoint after. Enabling a disabled endpoint starts its failure count afresh.
 */
export const updateWebhookEndpointEndpoint = defineEndpoint(updateWebhookEndpointContract, {
  sensitive: true,
  async handler(ctx): Promise<WebhookEndpoint> {
    const { auth, body } = ctx;
    const scope = await requireWebhookScope(auth, ctx.session, body.organizationId);
    const endpoint = await requireScopedEndpoint(auth, scope, body.endpointId);
    const { organizationId: _scope, endpointId: _id, ...changes } = body;
    if (Object.values(changes).every((value) => value === undefined))
      throw new AuthError("NO_FIELDS_TO_UPDATE");
    if (changes.url !== undefined && !isAcceptableWebhookUrl(auth, changes.url))
      throw new AuthError("INVALID_WEBHOOK_URL");
    if (!typesFitScope(scope, changes.eventTypes)) throw new AuthError("WEBHOOK_EVENT_TYPE_NOT_ORGANIZATION");
    const updated = await updateEndpoint(auth, endpoint, changes);
    if (!updated) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
    return toWebhookEndpoint(updated);
  },
});
