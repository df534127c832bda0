import { listTeamMembersContract } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertTeamsEnabled,
  readRequestActive,
  requireMembership,
  requireTeam,
} from "../../endpoints/guards.ts";
import { hasPermission } from "../../members/rules.ts";
import { roleTableOf } from "../../members/service.ts";
import { findTeamMember, listTeamMembers } from "../service.ts";
import { type TeamMember, toTeamMember } from "../types.ts";

/**
 * A team's members (default: the request's active team), one page, each with their team role. Team members may list them, and so may
 * organization members who manage teams (`team:update`) — Better Auth complaint #6.
 */
export const listTeamMembersEndpoint = defineEndpoint(listTeamMembersContract, {
  async handler(ctx): Promise<TeamMember[]> {
    const { auth, query } = ctx;
    assertTeamsEnabled(auth);
    const active = await readRequestActive(ctx);
    const { caller } = active;
    const teamId = query.teamId ?? active.teamId;
    if (teamId === null) throw new AuthError("TEAM_NO_ACTIVE_TEAM");
    const team = await requireTeam(auth, teamId);
    const member = await requireMembership(auth, team.organizationId, caller.user._id);
    if (
      !hasPermission(member.role, { team: ["update"] }, roleTableOf(auth)) &&
      !(await findTeamMember(auth, team._id, caller.user._id))
    )
      throw new AuthError("TEAM_NOT_A_MEMBER");
    const rows = await listTeamMembers(auth, team._id, query.limit, query.offset);
    return rows.map(toTeamMember);
  },
});
