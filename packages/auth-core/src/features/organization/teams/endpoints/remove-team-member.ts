import { removeTeamMemberContract, type TeamMessage } from "../../../../contracts/organization-teams.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { assertPermission, requireMembership } from "../../members/service.ts";
import { requireCaller, resolveOrganizationId } from "../../organizations/service.ts";
import { assertTeamsEnabled, forgetActiveTeam, requireTeam, takeUserOutOfTeam } from "../service.ts";

/** Takes a user out of a team (`team:update`); the team stops being active on their sessions. */
export const removeTeamMember = defineEndpoint(removeTeamMemberContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMessage> {
    const { auth, body } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const expected =
      body.organizationId === undefined ? undefined : resolveOrganizationId(null, body.organizationId);
    const team = await requireTeam(auth, body.teamId, expected);
    const own = await requireMembership(auth, team.organizationId, caller.user._id);
    assertPermission(auth, own, { team: ["update"] }, "TEAM_UPDATE_NOT_ALLOWED");
    const userId = parseId(body.userId);
    if (!userId || !(await takeUserOutOfTeam(auth, team._id, userId)))
      throw new AuthError("TEAM_MEMBER_NOT_FOUND");
    await forgetActiveTeam(auth, team._id, userId);
    return { message: "Team member removed successfully." };
  },
});
