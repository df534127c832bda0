import { updateTeamContract } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { renameTeam } from "../service.ts";
import { type Team, toTeam } from "../types.ts";
import { authorizeTeamChange } from "./team-access.ts";

/**
 * Renames a team: `team:update` in the team's own organization (the team decides which one), or the
 * caller's team role in this team (a team admin renames their own team, teams/rules.ts).
 */
export const updateTeam = defineEndpoint(updateTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<Team> {
    const { auth, body } = ctx;
    const { team } = await authorizeTeamChange(
      auth,
      ctx.session,
      { teamId: body.teamId },
      "rename",
      "TEAM_UPDATE_NOT_ALLOWED",
    );
    if (body.data.name === undefined) return toTeam(team);
    const updated = await renameTeam(auth, team._id, body.data.name);
    if (!updated) throw new AuthError("TEAM_NOT_FOUND");
    return toTeam(updated);
  },
});
