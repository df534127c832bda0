import { removeTeamMemberContract, type TeamMessage } from "../../../../contracts/organization-teams.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { findMember } from "../../members/service.ts";
import { canActOnTeamMember, teamRoleOf } from "../rules.ts";
import { findTeamMember, forgetActiveTeam, takeUserOutOfTeam, teamRoleTablesOf } from "../service.ts";
import { authorizeTeamChange } from "./team-access.ts";
import { recordTeamChange } from "./team-audit.ts";

/**
 * Takes a user out of a team (`team:update`, or a team admin of this team — who may not remove a
 * member whose organization role manages teams); the team stops being active on their sessions.
 */
export const removeTeamMember = defineEndpoint(removeTeamMemberContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMessage> {
    const { auth, body } = ctx;
    const { team, actor } = await authorizeTeamChange(
      auth,
      ctx.session,
      body,
      "remove-member",
      "TEAM_UPDATE_NOT_ALLOWED",
    );
    const userId = parseId(body.userId);
    if (!userId) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
    // Acting through a team role: the target is read to see whether they are out of the actor's reach.
    if (Object.keys(actor.teamRoles).length > 0) {
      const [member, row] = await Promise.all([
        findMember(auth, team.organizationId, userId),
        findTeamMember(auth, team._id, userId),
      ]);
      if (!row) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
      const target = { organizationRoles: member?.role ?? "", teamRole: teamRoleOf(row) };
      if (!canActOnTeamMember(actor, "remove-member", team._id.toHexString(), target, teamRoleTablesOf(auth)))
        throw new AuthError("TEAM_UPDATE_NOT_ALLOWED");
    }
    if (!(await takeUserOutOfTeam(auth, team._id, userId))) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
    await forgetActiveTeam(auth, team._id, userId);
    await recordTeamChange(ctx, "organization.remove-team-member", team, userId);
    return { message: "Team member removed successfully." };
  },
});
