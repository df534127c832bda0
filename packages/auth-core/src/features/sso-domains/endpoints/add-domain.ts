import { addDomainContract, type OrganizationDomain } from "../../../contracts/sso-domains.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { claimDomain } from "../service.ts";
import { toOrganizationDomain } from "../types.ts";
import { requireDomainManager } from "./guards.ts";

/** POST /organization/add-domain: a pending claim and the proof to publish (docs/security.md "Verified domains"). */
export const addOrganizationDomain = defineEndpoint(addDomainContract, {
  sensitive: true,
  async handler(ctx): Promise<OrganizationDomain> {
    const { organizationId, by } = await requireDomainManager(ctx, ctx.body.organizationId);
    const claimed = await claimDomain(ctx.auth, organizationId, ctx.body.domain, by);
    return toOrganizationDomain(answerRefusal(claimed));
  },
});
