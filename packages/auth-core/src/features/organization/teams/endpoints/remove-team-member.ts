import { removeTeamMemberContract, type TeamMessage } from "../../../../contracts/organization-teams.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { forgetActiveTeam, takeUserOutOfTeam } from "../service.ts";
import { authorizeTeamChange } from "./team-access.ts";

/** Takes a user out of a team (`team:update`); the team stops being active on their sessions. */
export const removeTeamMember = defineEndpoint(removeTeamMemberContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMessage> {
    const { auth, body } = ctx;
    const { team } = await authorizeTeamChange(auth, ctx.session, body, "update", "TEAM_UPDATE_NOT_ALLOWED");
    const userId = parseId(body.userId);
    if (!userId || !(await takeUserOutOfTeam(auth, team._id, userId)))
      throw new AuthError("TEAM_MEMBER_NOT_FOUND");
    await forgetActiveTeam(auth, team._id, userId);
    return { message: "Team member removed successfully." };
  },
});
