import { updateTeamContract } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { assertPermission, requireCaller, requireMembership } from "../../members/service.ts";
import { type Team, toTeam } from "../../organizations/types.ts";
import { assertTeamsEnabled, requireTeam } from "../service.ts";
import { updateTeamFields } from "../store.ts";

/** Renames a team with `team:update` in the team's own organization (the team decides which one). */
export const updateTeam = defineEndpoint(updateTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<Team> {
    const { auth, body } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const team = await requireTeam(auth, body.teamId);
    const member = await requireMembership(auth, team.organizationId, caller.user._id);
    assertPermission(auth, member, { team: ["update"] }, "TEAM_UPDATE_NOT_ALLOWED");
    if (body.data.name === undefined) return toTeam(team);
    const updated = await updateTeamFields(auth.collections, team._id, {
      name: body.data.name,
      updatedAt: auth.now(),
    });
    if (!updated) throw new AuthError("TEAM_NOT_FOUND");
    return toTeam(updated);
  },
});
