import { createTeamContract } from "../../../../contracts/organization-teams.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  assertTeamsEnabled,
  requireCaller,
  requireMembership,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { findOrganization } from "../../organizations/service.ts";
import { createTeamWithinLimit, deleteTeam } from "../service.ts";
import { type Team, toTeam } from "../types.ts";

/** `team:create` and `teams.maximumTeams` apply. */
export const createTeam = defineEndpoint(createTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<Team> {
    const { auth } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, ctx.body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { team: ["create"] }, "TEAM_CREATE_NOT_ALLOWED");
    const team = await createTeamWithinLimit(auth, organizationId, ctx.body.name);
    if (!team) throw new AuthError("TEAM_LIMIT_REACHED");
    // Read after the insert: an organization deleted meanwhile (its cascade may have run before our
    // insert) takes the team back, and the answer is the organization's not-found.
    if (!(await findOrganization(auth, organizationId))) {
      await deleteTeam(auth, team);
      throw new AuthError("ORGANIZATION_NOT_FOUND");
    }
    return toTeam(team);
  },
});
