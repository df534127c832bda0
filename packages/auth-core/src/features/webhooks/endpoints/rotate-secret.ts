import type { CreatedWebhookEndpoint } from "../../../contracts/webhook-models.ts";
import { rotateWebhookSecretContract } from "../../../contracts/webhooks.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { rotateEndpointSecret } from "../service.ts";
import { toWebhookEndpoint } from "../types.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/**
 * POST /webhooks/rotate-secret {organizationId?, endpointId} → {endpoint, secret}: the new secret,
 * shown once; deliveries are signed with it and the previous one for 24 hours (docs/decisions/0020-webhooks.md).
 */
export const rotateWebhookSecretEndpoint = defineEndpoint(rotateWebhookSecretContract, {
  sensitive: true,
  async handler(ctx): Promise<CreatedWebhookEndpoint> {
    const scope = await requireWebhookScope(ctx.auth, ctx.session, ctx.body.organizationId);
    const endpoint = await requireScopedEndpoint(ctx.auth, scope, ctx.body.endpointId);
    const rotated = await rotateEndpointSecret(ctx.auth, endpoint);
    if (!rotated) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
    return { endpoint: toWebhookEndpoint(rotated.endpoint), secret: rotated.secret };
  },
});
