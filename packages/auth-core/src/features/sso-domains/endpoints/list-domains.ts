import { listDomainsContract, type OrganizationDomain } from "../../../contracts/sso-domains.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listDomains } from "../service.ts";
import { toOrganizationDomain } from "../types.ts";
import { requireDomainManager } from "./guards.ts";

/** GET /organization/list-domains: for those who manage them (the answer carries the tokens). */
export const listOrganizationDomains = defineEndpoint(listDomainsContract, {
  async handler(ctx): Promise<OrganizationDomain[]> {
    const { organizationId } = await requireDomainManager(ctx, ctx.query.organizationId);
    return (await listDomains(ctx.auth, organizationId)).map(toOrganizationDomain);
  },
});
