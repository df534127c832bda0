import { updateMemberRoleContract } from "../../../../contracts/organization-members.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { canActOnMember, canGrantRoles, findUnknownRoles, holdsRole } from "../rules.ts";
import { dropCreatorRole, findMemberById, roleTableOf, setMemberRole } from "../service.ts";
import { type Member, toMember } from "../types.ts";

/**
 * POST /organization/update-member-role, under the permission rules (docs/guide.md "Organizations"):
 * nobody grants a role they do not hold (a member cannot promote themself, an admin cannot make
 * owners), an admin cannot change an owner, nobody changes a member whose roles grant more than the
 * caller's, and the sole owner cannot be demoted.
 */
export const updateMemberRole = defineEndpoint(updateMemberRoleContract, {
  sensitive: true,
  async handler(ctx): Promise<Member> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, body.organizationId);
    const own = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, own, { member: ["update"] }, "MEMBER_UPDATE_NOT_ALLOWED");
    const table = roleTableOf(auth);
    if (findUnknownRoles(body.role, table).length > 0) throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    const target = await findMemberById(auth, organizationId, body.memberId);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    const creatorRole = auth.options.organization.creatorRole;
    // An admin cannot change an owner, nor anyone a member who can do more.
    if (!canActOnMember(own.role, target.role, table, creatorRole))
      throw new AuthError("MEMBER_UPDATE_NOT_ALLOWED");
    if (!canGrantRoles(own.role, body.role, table, creatorRole))
      throw new AuthError("MEMBER_UPDATE_NOT_ALLOWED");
    const role = body.role.join(",");
    if (holdsRole(target.role, creatorRole) && !body.role.includes(creatorRole)) {
      if (!(await dropCreatorRole(auth, target, role))) throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
    } else await setMemberRole(auth, target, role);
    return toMember({ ...target, role });
  },
});
