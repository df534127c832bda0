import { type OrganizationDomain, updateDomainSettingsContract } from "../../../contracts/sso-domains.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { updateDomainSettings } from "../service.ts";
import { toOrganizationDomain } from "../types.ts";
import { requireDomainManager } from "./guards.ts";

/** POST /organization/update-domain-settings: auto-join (with its role) and require-SSO. */
export const updateOrganizationDomainSettings = defineEndpoint(updateDomainSettingsContract, {
  sensitive: true,
  async handler(ctx): Promise<OrganizationDomain> {
    const { organizationId, by } = await requireDomainManager(ctx, ctx.body.organizationId);
    const { domain, autoJoin, autoJoinRole, requireSso } = ctx.body;
    const updated = await updateDomainSettings(
      ctx.auth,
      organizationId,
      domain,
      { autoJoin, autoJoinRole, requireSso },
      by,
    );
    return toOrganizationDomain(answerRefusal(updated));
  },
});
