import { type OrganizationDomain, verifyDomainContract } from "../../../contracts/sso-domains.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { verifyDomain } from "../service.ts";
import { toOrganizationDomain } from "../types.ts";
import { requireDomainManager } from "./guards.ts";

/** POST /organization/verify-domain: the published TXT record or file proves the claim. */
export const verifyOrganizationDomain = defineEndpoint(verifyDomainContract, {
  sensitive: true,
  async handler(ctx): Promise<OrganizationDomain> {
    const { organizationId, by } = await requireDomainManager(ctx, ctx.body.organizationId);
    const verified = await verifyDomain(ctx.auth, organizationId, ctx.body.domain, by);
    return toOrganizationDomain(answerRefusal(verified));
  },
});
