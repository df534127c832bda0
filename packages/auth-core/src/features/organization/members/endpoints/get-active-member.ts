import { getActiveMemberContract } from "../../../../contracts/organization-members.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { readRequestActive } from "../../endpoints/guards.ts";
import { findMember } from "../service.ts";
import { type MemberWithUser, toMember, toMemberUser } from "../types.ts";

/**
 * The caller's member row in the request's active organization (the header's or the session's), with
 * the caller's public user fields.
 */
export const getActiveMember = defineEndpoint(getActiveMemberContract, {
  async handler(ctx): Promise<MemberWithUser> {
    const { caller, organizationId: active } = await readRequestActive(ctx);
    const organizationId = parseId(active);
    if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
    const member = await findMember(ctx.auth, organizationId, caller.user._id);
    if (!member) throw new AuthError("MEMBER_NOT_FOUND");
    return { ...toMember(member), user: toMemberUser(caller.user) };
  },
});
