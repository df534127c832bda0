import { deleteOrganizationContract } from "../../../../contracts/organization.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  requireOrganization,
  requireOrganizationIdField,
} from "../../endpoints/guards.ts";
import { deleteOrganizationCascade, forgetActiveOrganization } from "../service.ts";
import { type Organization, toOrganization } from "../types.ts";

export const deleteOrganization = defineEndpoint(deleteOrganizationContract, {
  sensitive: true,
  async handler(ctx): Promise<Organization> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    // deletion may be disabled by configuration (then the endpoint answers 404).
    if (auth.options.organization.disableOrganizationDeletion)
      throw new AuthError("ORGANIZATION_DELETION_DISABLED");
    const organizationId = parseId(requireOrganizationIdField(ctx.body.organizationId));
    if (!organizationId) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { organization: ["delete"] }, "ORGANIZATION_UPDATE_NOT_ALLOWED");
    const organization = await requireOrganization(auth, organizationId);
    if (!(await deleteOrganizationCascade(auth, organizationId)))
      throw new AuthError("ORGANIZATION_NOT_FOUND");
    forgetActiveOrganization(auth, ctx.cookies, caller, organizationId.toHexString());
    return toOrganization(organization);
  },
});
