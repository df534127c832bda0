import { createTeamContract } from "../../../../contracts/organization-teams.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
} from "../../members/service.ts";
import { type Team, toTeam } from "../../organizations/types.ts";
import { assertTeamsEnabled, createTeamWithinLimit } from "../service.ts";

/** SPEC §3/§5: `team:create` and `teams.maximumTeams` apply. */
export const createTeam = defineEndpoint(createTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<Team> {
    const { auth } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, ctx.body.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { team: ["create"] }, "TEAM_CREATE_NOT_ALLOWED");
    const team = await createTeamWithinLimit(auth, organizationId, ctx.body.name);
    return toTeam(team);
  },
});
