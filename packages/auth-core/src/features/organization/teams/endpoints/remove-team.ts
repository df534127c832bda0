import { removeTeamContract, type TeamMessage } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { clearMembersTeam } from "../../members/service.ts";
import { forgetActiveTeam, removeTeamUnlessLast } from "../service.ts";
import { authorizeTeamChange } from "./team-access.ts";

/**
 * `team:delete`; the last team stays unless `teams.allowRemovingAllTeams`; a member's own
 * team (member.teamId) cannot be removed by them. Its memberships go, and no session keeps it active.
 */
export const removeTeam = defineEndpoint(removeTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMessage> {
    const { auth, body } = ctx;
    const { team, member } = await authorizeTeamChange(
      auth,
      ctx.session,
      body,
      "delete",
      "TEAM_DELETE_NOT_ALLOWED",
    );
    if (member.teamId?.equals(team._id)) throw new AuthError("TEAM_UPDATE_NOT_ALLOWED");
    const removed = await removeTeamUnlessLast(auth, team);
    if (!removed.ok)
      throw new AuthError(removed.reason === "last-team" ? "UNABLE_TO_REMOVE_LAST_TEAM" : "TEAM_NOT_FOUND");
    await clearMembersTeam(auth, team.organizationId, team._id);
    await forgetActiveTeam(auth, team._id);
    return { message: "Team removed successfully." };
  },
});
