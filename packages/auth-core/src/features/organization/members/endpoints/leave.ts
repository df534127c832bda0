import { leaveOrganizationContract } from "../../../../contracts/organization-members.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, requireOrganizationIdField } from "../../endpoints/guards.ts";
import { forgetActiveOrganization } from "../../organizations/service.ts";
import { removeMembership } from "../service.ts";
import { type Member, toMember } from "../types.ts";

/** anyone may leave, except the sole owner; the organization stops being active. */
export const leaveOrganization = defineEndpoint(leaveOrganizationContract, {
  sensitive: true,
  async handler(ctx): Promise<Member> {
    const { auth } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = parseId(requireOrganizationIdField(ctx.body.organizationId));
    if (!organizationId) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    const member = await requireMembership(auth, organizationId, caller.user._id);
    const removed = await removeMembership(auth, member);
    if (removed === false) throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
    if (removed === null) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    forgetActiveOrganization(auth, ctx.cookies, caller, organizationId.toHexString());
    return toMember(member);
  },
});
