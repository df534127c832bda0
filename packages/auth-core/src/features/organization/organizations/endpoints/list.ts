import { listOrganizationsContract } from "../../../../contracts/organization.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller } from "../../members/service.ts";
import { findOrganizationsByIds, listUserMemberships } from "../../members/store.ts";
import { type Organization, toOrganization } from "../types.ts";

/**
 * The organizations the caller is a member of, oldest membership first, one page (`limit` ≤ 100,
 * default 100; `offset` for the next): two indexed reads. A membership whose organization is gone
 * is skipped, so a page may hold fewer than `limit`.
 */
export const listOrganizations = defineEndpoint(listOrganizationsContract, {
  async handler(ctx): Promise<Organization[]> {
    const caller = requireCaller(ctx.session);
    const { limit, offset } = ctx.query;
    const memberships = await listUserMemberships(ctx.auth.collections, caller.user._id, limit, offset);
    const organizations = await findOrganizationsByIds(
      ctx.auth.collections,
      memberships.map((member) => member.organizationId),
    );
    const byId = new Map(organizations.map((organization) => [organization._id.toHexString(), organization]));
    return memberships.flatMap((member) => {
      const organization = byId.get(member.organizationId.toHexString());
      return organization ? [toOrganization(organization)] : [];
    });
  },
});
