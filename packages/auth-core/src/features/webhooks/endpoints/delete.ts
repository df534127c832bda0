import { deleteWebhookEndpointContract } from "../../../contracts/webhooks.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deleteEndpoint } from "../service.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/** POST /webhooks/delete {organizationId?, endpointId} → {success: true}; its deliveries go with it. */
export const deleteWebhookEndpointEndpoint = defineEndpoint(deleteWebhookEndpointContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const scope = await requireWebhookScope(ctx.auth, ctx.session, ctx.body.organizationId);
    const endpoint = await requireScopedEndpoint(ctx.auth, scope, ctx.body.endpointId);
    if (!(await deleteEndpoint(ctx.auth, endpoint))) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
    return { success: true };
  },
});
