import { hasPermissionContract, type PermissionCheck } from "../../../../contracts/organization.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { ERROR_CATALOGUE } from "../../../../errors/catalogue.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  requireCaller,
  requireMembership,
  requireTeam,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { findTeamPermissionRefusal, teamRoleOf } from "../../teams/rules.ts";
import { findTeamMember, teamRoleTablesOf } from "../../teams/service.ts";
import { findPermissionRefusal } from "../rules.ts";
import { roleTableOf } from "../service.ts";

/**
 * Whether the caller's roles grant every requested action (the permission rules (docs/guide.md "Organizations"); `permission` is the old name).
 * With `teamId`, a team of that organization is the context: the caller's role in it grants too, and
 * the organization role still wins where it grants more (teams/rules.ts findTeamPermissionRefusal).
 * A refusal is an answer, not an error: `success: false` with the access-control message of the error catalogue
 * as `error` (Better Auth's shape).
 */
export const hasOrganizationPermission = defineEndpoint(hasPermissionContract, {
  async handler(ctx): Promise<PermissionCheck> {
    const { auth, body } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    const request = body.permissions ?? body.permission ?? {};
    let refusal: ReturnType<typeof findPermissionRefusal>;
    if (body.teamId === undefined) refusal = findPermissionRefusal(member.role, request, roleTableOf(auth));
    else {
      if (!auth.options.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
      const team = await requireTeam(auth, body.teamId, organizationId);
      const row = await findTeamMember(auth, team._id, caller.user._id);
      const teamRole = row ? teamRoleOf(row) : null;
      refusal = findTeamPermissionRefusal(member.role, teamRole, request, teamRoleTablesOf(auth));
    }
    return { error: refusal && ERROR_CATALOGUE[refusal].message, success: refusal === null };
  },
});
