import { updateTeamContract } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  assertTeamsEnabled,
  requireCaller,
  requireMembership,
  requireTeam,
} from "../../endpoints/guards.ts";
import { renameTeam } from "../service.ts";
import { type Team, toTeam } from "../types.ts";

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
    const updated = await renameTeam(auth, team._id, body.data.name);
    if (!updated) throw new AuthError("TEAM_NOT_FOUND");
    return toTeam(updated);
  },
});
