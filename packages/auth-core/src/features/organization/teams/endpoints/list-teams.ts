import { listOrganizationTeamsContract } from "../../../../contracts/organization-teams.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import {
  assertTeamsEnabled,
  requireCaller,
  requireMembership,
  resolveRequestOrganizationId,
} from "../../endpoints/guards.ts";
import { listTeams } from "../service.ts";
import { type Team, toTeam } from "../types.ts";

/** listing teams requires membership. Oldest first, one page (`limit` ≤ 100, default 100; `offset`). */
export const listOrganizationTeams = defineEndpoint(listOrganizationTeamsContract, {
  async handler(ctx): Promise<Team[]> {
    const { auth, query } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const organizationId = await resolveRequestOrganizationId(ctx, query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    const teams = await listTeams(auth, organizationId, query.limit, query.offset);
    return teams.map(toTeam);
  },
});
