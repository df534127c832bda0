import { removeTeamContract, type TeamMessage } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  clearActiveTeamOfSessions,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
} from "../../members/service.ts";
import { clearMembersTeam } from "../../members/store.ts";
import { assertTeamsEnabled, requireTeam } from "../service.ts";
import { countTeams, deleteTeamById, deleteTeamMembersOfTeam, insertTeam } from "../store.ts";

/**
 * SPEC §5: `team:delete`; the last team stays unless `teams.allowRemovingAllTeams`; a member's own
 * team (member.teamId) cannot be removed by them. Its memberships go, and no session keeps it active.
 */
export const removeTeam = defineEndpoint(removeTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMessage> {
    const { auth, body } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const expected =
      body.organizationId === undefined ? undefined : resolveOrganizationId(null, body.organizationId);
    const team = await requireTeam(auth, body.teamId, expected);
    const member = await requireMembership(auth, team.organizationId, caller.user._id);
    assertPermission(auth, member, { team: ["delete"] }, "TEAM_DELETE_NOT_ALLOWED");
    if (member.teamId?.equals(team._id)) throw new AuthError("TEAM_UPDATE_NOT_ALLOWED");
    if (!(await deleteTeamById(auth.collections, team._id))) throw new AuthError("TEAM_NOT_FOUND");
    // Delete first, then count what is left: a count before the delete cannot see a parallel removal
    // (two removals both saw two teams and left none). None left → the team comes back, before any
    // of its memberships went. Parallel removals may all refuse, never all pass.
    if (
      !auth.options.organization.teams.allowRemovingAllTeams &&
      (await countTeams(auth.collections, team.organizationId)) === 0
    ) {
      await insertTeam(auth.collections, team);
      throw new AuthError("UNABLE_TO_REMOVE_LAST_TEAM");
    }
    await deleteTeamMembersOfTeam(auth.collections, team._id);
    await clearMembersTeam(auth.collections, team.organizationId, team._id);
    await clearActiveTeamOfSessions(auth, team._id.toHexString());
    return { message: "Team removed successfully." };
  },
});
