import { type RemovedMember, removeMemberContract } from "../../../../contracts/organization-members.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { forgetActiveOrganization } from "../../organizations/service.ts";
import { canActOnMember } from "../rules.ts";
import { findMemberByIdOrEmail, removeMembership, roleTableOf } from "../service.ts";
import { toMember } from "../types.ts";

export const removeMember = defineEndpoint(removeMemberContract, {
  sensitive: true,
  async handler(ctx): Promise<RemovedMember> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, body.organizationId);
    const own = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, own, { member: ["delete"] }, "MEMBER_DELETE_NOT_ALLOWED");
    // "The organization must match": a member of another organization is not found here.
    const target = await findMemberByIdOrEmail(auth, organizationId, body.memberIdOrEmail);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    // An admin cannot remove an owner (docs/security.md), nor anyone a member
    // whose roles grant more than their own.
    const creatorRole = auth.options.organization.creatorRole;
    if (!canActOnMember(own.role, target.role, roleTableOf(auth), creatorRole))
      throw new AuthError("MEMBER_DELETE_NOT_ALLOWED");
    const removed = await removeMembership(auth, target);
    if (removed === false) throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
    if (removed === null) throw new AuthError("MEMBER_NOT_FOUND");
    if (target.userId.equals(caller.user._id))
      forgetActiveOrganization(auth, ctx.cookies, caller, organizationId.toHexString());
    return { member: toMember(target) };
  },
});
