import { removeDomainContract } from "../../../contracts/sso-domains.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { removeDomain } from "../service.ts";
import { requireDomainManager } from "./guards.ts";

/** POST /organization/remove-domain: the claim goes, and with it what the verified domain did. */
export const removeOrganizationDomain = defineEndpoint(removeDomainContract, {
  sensitive: true,
  async handler(ctx): Promise<{ domain: string }> {
    const { organizationId, by } = await requireDomainManager(ctx, ctx.body.organizationId);
    const removed = answerRefusal(await removeDomain(ctx.auth, organizationId, ctx.body.domain, by));
    return { domain: removed.domain };
  },
});
