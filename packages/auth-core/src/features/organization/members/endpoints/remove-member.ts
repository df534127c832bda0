import type { ObjectId } from "mongodb";
import type { AuthContext } from "../../../../context.ts";
import { type RemovedMember, removeMemberContract } from "../../../../contracts/organization-members.ts";
import type { MemberDoc } from "../../../../db/documents.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { emailField } from "../../../schemas.ts";
import { findUserByEmail } from "../../../users/store.ts";
import { toMember } from "../../organizations/types.ts";
import { coversRoles, holdsRole } from "../rules.ts";
import {
  assertPermission,
  forgetActiveOrganization,
  removeMembership,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
  roleTableOf,
} from "../service.ts";
import { findMember, findMemberById } from "../store.ts";

/** SPEC §5: the target is found by member id, or by email when the value contains an at sign. */
async function findTarget(
  auth: AuthContext,
  organizationId: ObjectId,
  memberIdOrEmail: string,
): Promise<MemberDoc | null> {
  if (memberIdOrEmail.includes("@")) {
    const email = emailField.safeParse(memberIdOrEmail);
    const user = email.success ? await findUserByEmail(auth.collections, email.data) : null;
    return user ? findMember(auth.collections, organizationId, user._id) : null;
  }
  const memberId = parseId(memberIdOrEmail);
  return memberId ? findMemberById(auth.collections, organizationId, memberId) : null;
}

export const removeMember = defineEndpoint(removeMemberContract, {
  sensitive: true,
  async handler(ctx): Promise<RemovedMember> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, body.organizationId);
    const own = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, own, { member: ["delete"] }, "MEMBER_DELETE_NOT_ALLOWED");
    // "The organization must match" (SPEC §5): a member of another organization is not found here.
    const target = await findTarget(auth, organizationId, body.memberIdOrEmail);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    // An admin cannot remove an owner (security-matrix I3): only a creator-role holder can.
    const creatorRole = auth.options.organization.creatorRole;
    if (holdsRole(target.role, creatorRole) && !holdsRole(own.role, creatorRole))
      throw new AuthError("MEMBER_DELETE_NOT_ALLOWED");
    // Review finding 12: nobody removes a member whose roles grant more than their own.
    if (!coversRoles(own.role, target.role, roleTableOf(auth)))
      throw new AuthError("MEMBER_DELETE_NOT_ALLOWED");
    const removed = await removeMembership(auth, target);
    if (removed === false) throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
    if (removed === null) throw new AuthError("MEMBER_NOT_FOUND");
    if (target.userId.equals(caller.user._id))
      forgetActiveOrganization(auth, ctx.cookies, caller, organizationId.toHexString());
    return { member: toMember(target) };
  },
});
