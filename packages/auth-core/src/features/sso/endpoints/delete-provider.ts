import { deleteSsoProviderContract } from "../../../contracts/sso.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { removeManagedConnection } from "../manage.ts";

/**
 * POST /sso/delete-provider: the connection and its users' accounts go (connections.ts
 * removeConnection). A signed-in owner or admin only: a setup link does not delete (its users'
 * accounts go with it, which is more than setting up).
 */
export const deleteSsoProvider = defineEndpoint(deleteSsoProviderContract, {
  async handler(ctx): Promise<{ success: true }> {
    const manager = { kind: "member", caller: ctx.session! } as const;
    answerRefusal(await removeManagedConnection(ctx.auth, ctx, manager, ctx.body.providerId));
    return { success: true };
  },
});
