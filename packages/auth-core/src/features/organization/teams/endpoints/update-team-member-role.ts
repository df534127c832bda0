import { updateTeamMemberRoleContract } from "../../../../contracts/organization-teams.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { findMember } from "../../members/service.ts";
import { canActOnTeamMember, canGrantTeamRole, teamRoleOf } from "../rules.ts";
import { findTeamMember, setTeamMemberRole, teamRoleTablesOf } from "../service.ts";
import { type TeamMember, toTeamMember } from "../types.ts";
import { authorizeTeamChange } from "./team-access.ts";
import { recordTeamChange } from "./team-audit.ts";

/**
 * Sets a team member's team role: `team:update` in the organization, or a team admin of this team
 * (teams/rules.ts) — who gives only roles whose rights they hold and leaves alone members whose
 * organization role manages teams. The answer is the membership with its new role.
 */
export const updateTeamMemberRoleEndpoint = defineEndpoint(updateTeamMemberRoleContract, {
  sensitive: true,
  async handler(ctx): Promise<TeamMember> {
    const { auth, body } = ctx;
    const { team, actor } = await authorizeTeamChange(
      auth,
      ctx.session,
      body,
      "set-member-role",
      "TEAM_UPDATE_NOT_ALLOWED",
    );
    const tables = teamRoleTablesOf(auth);
    const teamId = team._id.toHexString();
    if (!Object.hasOwn(tables.team, body.role)) throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    const userId = parseId(body.userId);
    const row = userId ? await findTeamMember(auth, team._id, userId) : null;
    if (!row) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
    const target = await findMember(auth, team.organizationId, row.userId);
    if (
      !canActOnTeamMember(
        actor,
        "set-member-role",
        teamId,
        { organizationRoles: target?.role ?? "", teamRole: teamRoleOf(row) },
        tables,
      ) ||
      !canGrantTeamRole(actor, body.role, teamId, tables)
    )
      throw new AuthError("TEAM_UPDATE_NOT_ALLOWED");
    const previous = teamRoleOf(row);
    const updated = await setTeamMemberRole(auth, team._id, row.userId, body.role);
    if (!updated) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
    await recordTeamChange(ctx, "organization.set-team-member-role", team, row.userId, {
      role: body.role,
      previousRole: previous,
    });
    return toTeamMember(updated);
  },
});
