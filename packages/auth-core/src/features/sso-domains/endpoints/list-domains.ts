import { listDomainsContract, type OrganizationDomain } from "../../../contracts/sso-domains.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listDomains } from "../service.ts";
import { toOrganizationDomain } from "../types.ts";
import { requireDomainReader } from "./guards.ts";

/**
 * GET /organization/list-domains: managers see every claim; other members the verified domains
 * only, with their settings (whether they join automatically, whether SSO is required of them),
 * never a pending claim, whose answer carries its proof token.
 */
export const listOrganizationDomains = defineEndpoint(listDomainsContract, {
  async handler(ctx): Promise<OrganizationDomain[]> {
    const { organizationId, canManage } = await requireDomainReader(ctx, ctx.query.organizationId);
    const domains = await listDomains(ctx.auth, organizationId);
    const shown = canManage ? domains : domains.filter((domain) => domain.status === "verified");
    return shown.map(toOrganizationDomain);
  },
});
