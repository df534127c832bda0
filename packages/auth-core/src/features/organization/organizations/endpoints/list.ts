import { listOrganizationsContract } from "../../../../contracts/organization.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller } from "../../endpoints/guards.ts";
import { listUserOrganizations } from "../service.ts";
import { type Organization, toOrganization } from "../types.ts";

/**
 * The organizations the caller is a member of, oldest membership first, one page (`limit` ≤ 100,
 * default 100; `offset` for the next): listUserOrganizations.
 */
export const listOrganizations = defineEndpoint(listOrganizationsContract, {
  async handler(ctx): Promise<Organization[]> {
    const caller = requireCaller(ctx.session);
    const { limit, offset } = ctx.query;
    const organizations = await listUserOrganizations(ctx.auth, caller.user._id, limit, offset);
    return organizations.map(toOrganization);
  },
});
