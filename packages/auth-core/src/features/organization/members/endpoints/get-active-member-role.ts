import { getActiveMemberRoleContract, type MemberRole } from "../../../../contracts/organization-members.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireCaller, requireMembership, resolveOrganizationRef } from "../../endpoints/guards.ts";
import { findMember } from "../service.ts";

/** The caller's role (or, with userId, a fellow member's) in the named or active organization. */
export const getActiveMemberRole = defineEndpoint(getActiveMemberRoleContract, {
  async handler(ctx): Promise<MemberRole> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const ref = await resolveOrganizationRef(ctx, query);
    const own = await requireMembership(auth, ref.id, caller.user._id);
    if (query.userId === undefined || query.userId === caller.user._id.toHexString())
      return { role: own.role };
    const userId = parseId(query.userId);
    const member = userId ? await findMember(auth, ref.id, userId) : null;
    if (!member) throw new AuthError("USER_NOT_MEMBER");
    return { role: member.role };
  },
});
