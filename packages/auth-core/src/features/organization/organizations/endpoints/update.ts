import { updateOrganizationContract } from "../../../../contracts/organization.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  requireOrganization,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { type OrganizationFields, updateOrganizationFields } from "../service.ts";
import { type Organization, toOrganization } from "../types.ts";

export const updateOrganization = defineEndpoint(updateOrganizationContract, {
  sensitive: true,
  async handler(ctx): Promise<Organization> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { organization: ["update"] }, "ORGANIZATION_UPDATE_NOT_ALLOWED");
    const fields: OrganizationFields = {};
    if (body.data.name !== undefined) fields.name = body.data.name;
    if (body.data.slug !== undefined) fields.slug = body.data.slug;
    if (body.data.logo !== undefined) fields.logo = body.data.logo;
    if (body.data.metadata !== undefined) fields.metadata = JSON.stringify(body.data.metadata);
    if (Object.keys(fields).length === 0)
      return toOrganization(await requireOrganization(auth, organizationId));
    const updated = await updateOrganizationFields(auth, organizationId, fields);
    if (!updated.ok)
      throw new AuthError(
        updated.reason === "slug-taken" ? "ORGANIZATION_SLUG_TAKEN" : "ORGANIZATION_NOT_FOUND",
      );
    return toOrganization(updated.organization);
  },
});
