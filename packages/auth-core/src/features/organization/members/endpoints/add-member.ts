import { addMemberContract } from "../../../../contracts/organization-members.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  requireOrganization,
  requireOrganizationTeams,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { takeBackMembershipIfOrphaned } from "../../organizations/service.ts";
import { joinTeams } from "../../teams/service.ts";
import { findUnknownRoles } from "../rules.ts";
import { addMemberWithinLimit, deleteMember, findUser, roleTableOf } from "../service.ts";
import { type Member, toMember } from "../types.ts";

/**
 * docs/decisions/: server-only (auth.api.addMember and the CLI) — the app's own code decides who may
 * add; no permission check here. The membership and team limits still hold. What the new rows point
 * at is read again after them: an organization, team or user deleted meanwhile (its cascade may have
 * run before our inserts) → the member and its team memberships are taken back.
 */
export const addMember = defineEndpoint(addMemberContract, {
  async handler(ctx): Promise<Member> {
    const { auth, body } = ctx;
    const organizationId = await resolveRequestOrganizationId(ctx, body.organizationId);
    await requireOrganization(auth, organizationId);
    const userId = parseId(body.userId);
    const user = userId ? await findUser(auth, userId) : null;
    if (!user) throw new AuthError("MEMBER_USER_NOT_FOUND");
    if (findUnknownRoles(body.role, roleTableOf(auth)).length > 0)
      throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    const teams = await requireOrganizationTeams(auth, organizationId, body.teamId ?? []);
    const added = await addMemberWithinLimit(auth, {
      organizationId,
      userId: user._id,
      role: body.role.join(","),
      teamId: teams[0]?._id ?? null,
    });
    if (!added.ok)
      throw new AuthError(added.reason === "limit" ? "MEMBERSHIP_LIMIT_REACHED" : "MEMBER_ALREADY_EXISTS");
    if (!(await joinTeams(auth, teams, user._id))) {
      await deleteMember(auth, added.value);
      throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
    }
    const gone = await takeBackMembershipIfOrphaned(auth, added.value, teams);
    if (gone) throw new AuthError(gone);
    return toMember(added.value);
  },
});
