import { replayWebhookDeliveriesContract } from "../../../contracts/webhooks.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findDelivery, replayDeliveries } from "../service.ts";
import { requireScopedEndpoint, requireWebhookScope } from "./guards.ts";

/**
 * POST /webhooks/replay {organizationId?, endpointId, deliveryId | from, to?} → {replayed}: one
 * delivery, or those created in [from, to) (to: now), due again with their own `webhook-id`.
 */
export const replayWebhookDeliveriesEndpoint = defineEndpoint(replayWebhookDeliveriesContract, {
  sensitive: true,
  async handler(ctx): Promise<{ replayed: number }> {
    const { auth, body } = ctx;
    const scope = await requireWebhookScope(auth, ctx.session, body.organizationId);
    const endpoint = await requireScopedEndpoint(auth, scope, body.endpointId);
    if ((body.deliveryId === undefined) === (body.from === undefined))
      throw new AuthError("VALIDATION_ERROR");
    if (body.deliveryId !== undefined) {
      if (!(await findDelivery(auth, endpoint, body.deliveryId)))
        throw new AuthError("WEBHOOK_DELIVERY_NOT_FOUND");
      return { replayed: await replayDeliveries(auth, endpoint, { id: body.deliveryId }) };
    }
    const from = new Date(body.from as string);
    const to = body.to === undefined ? auth.now() : new Date(body.to);
    return { replayed: await replayDeliveries(auth, endpoint, { from, to }) };
  },
});
