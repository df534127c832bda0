import { deleteScimConnectionContract } from "../../../../contracts/scim-tokens.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireDomainManager } from "../../../sso-domains/index.ts";
import { revokeScimToken } from "../service.ts";

/** POST /scim/delete-provider-connection: the token stops at once (the next SCIM request is 401). */
export const deleteScimProviderConnection = defineEndpoint(deleteScimConnectionContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const { organizationId, by } = await requireDomainManager(ctx, ctx.body.organizationId);
    answerRefusal(await revokeScimToken(ctx.auth, organizationId, ctx.body.providerId, by));
    return { success: true };
  },
});
