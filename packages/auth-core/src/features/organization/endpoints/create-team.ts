import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { idField } from "../schemas.ts";
import { assertPermission, requireCaller, requireMembership, resolveOrganizationId } from "../service.ts";
import { assertTeamsEnabled, createTeamWithinLimit } from "../team-service.ts";
import { type Team, toTeam } from "../types.ts";

/** SPEC §3/§5: a team name has at least 1 character; `team:create` and `teams.maximumTeams` apply. */
export const teamNameField = z.string().trim().min(1).max(256);

export const createTeam = defineEndpoint({
  name: "createTeam",
  method: "POST",
  path: "/organization/create-team",
  auth: "session",
  sensitive: true,
  body: z.strictObject({ name: teamNameField, organizationId: idField.optional() }),
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
