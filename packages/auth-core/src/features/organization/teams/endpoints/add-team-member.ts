import { addTeamMemberContract } from "../../../../contracts/organization-teams.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { findMember } from "../../members/service.ts";
import { canGrantTeamRole, TEAM_MEMBER_ROLE } from "../rules.ts";
import { addTeamMemberWithinLimit, findTeam, takeUserOutOfTeam, teamRoleTablesOf } from "../service.ts";
import { type TeamMember, toTeamMember } from "../types.ts";
import { authorizeTeamChange } from "./team-access.ts";
import { recordTeamChange } from "./team-audit.ts";

/**
 * Adds a member of the team's organization to the team with a team role (default team-member), within
 * `teams.maximumMembersPerTeam`: `team:update` in the organization, or a team role allowing it in this
 * team (a team admin). Someone outside the organization cannot join its teams; a role the caller may
 * not give is refused before anything is written (teams/rules.ts canGrantTeamRole).
 *
 * A remove-team, remove-member or organization delete racing this request deletes its own row first
 * and the team memberships after; when those ran before our insert the new row would point at
 * nothing. So the team and the member are read again after the insert: either gone → the row is
 * taken back. (An organization's cascade deletes its members before its team memberships, so the
 * member read covers it too.)
 */
export const addTeamMember = defineEndpoint(addTeamMemberContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMember> {
    const { auth, body } = ctx;
    const { team, actor } = await authorizeTeamChange(
      auth,
      ctx.session,
      body,
      "add-member",
      "TEAM_UPDATE_NOT_ALLOWED",
    );
    const role = body.role ?? TEAM_MEMBER_ROLE;
    const tables = teamRoleTablesOf(auth);
    if (!Object.hasOwn(tables.team, role)) throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    if (!canGrantTeamRole(actor, role, team._id.toHexString(), tables))
      throw new AuthError("TEAM_UPDATE_NOT_ALLOWED");
    const userId = parseId(body.userId);
    const target = userId ? await findMember(auth, team.organizationId, userId) : null;
    if (!target) throw new AuthError("USER_NOT_MEMBER");
    const added = await addTeamMemberWithinLimit(auth, team, target.userId, role);
    if (!added.ok)
      throw new AuthError(
        added.reason === "limit" ? "TEAM_MEMBER_LIMIT_REACHED" : "TEAM_MEMBER_ALREADY_EXISTS",
      );
    const teamGone = !(await findTeam(auth, team._id));
    if (teamGone || !(await findMember(auth, team.organizationId, target.userId))) {
      await takeUserOutOfTeam(auth, team._id, target.userId);
      throw new AuthError(teamGone ? "TEAM_NOT_FOUND" : "USER_NOT_MEMBER");
    }
    await recordTeamChange(ctx, "organization.add-team-member", team, target.userId, { role });
    return toTeamMember(added.value);
  },
});
