import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { requireCaller } from "../service.ts";
import { findOrganizationsByIds, listUserMemberships } from "../store.ts";
import { type Organization, toOrganization } from "../types.ts";

/** A user's organizations listed at once are capped like every other listing. */
const LIST_LIMIT = 100;

/** The organizations the caller is a member of, oldest membership first: two indexed reads. */
export const listOrganizations = defineEndpoint({
  name: "listOrganizations",
  method: "GET",
  path: "/organization/list",
  auth: "session",
  async handler(ctx): Promise<Organization[]> {
    const caller = requireCaller(ctx.session);
    const memberships = await listUserMemberships(ctx.auth.collections, caller.user._id, LIST_LIMIT);
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
