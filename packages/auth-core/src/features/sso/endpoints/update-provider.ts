import { updateSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { updateManagedConnection } from "../manage.ts";
import { requireSsoManager } from "./manager-guard.ts";

/**
 * POST /sso/update-provider: the given fields only. Changed concurrently (or deleted) since it was
 * read: "not found", nothing written.
 */
export const updateSsoProvider = defineEndpoint(updateSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    // Who calls first: without a session or setup cookie the answer is 401, whatever the body.
    const manager = await requireSsoManager(ctx);
    return answerRefusal(await updateManagedConnection(ctx.auth, ctx, manager, ctx.body));
  },
});
