import { setActiveTeamContract } from "../../../../contracts/organization-teams.ts";
import { parseId } from "../../../../db/ids.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { assertTeamsEnabled, requireCaller, requireTeam, writeActiveOrSay } from "../../endpoints/guards.ts";
import { findTeamMember } from "../service.ts";
import { type Team, toTeam } from "../types.ts";

/**
 * Sets (or with null clears) the session's active team: a team of the active organization the caller
 * is in. Sensitive: the session is read from the database, never the cookie cache — clearing writes
 * the session's active organization back with it, and a cached one of a member removed since would
 * put the organization they lost back on the session.
 */
export const setActiveTeam = defineEndpoint(setActiveTeamContract, {
  sensitive: true,
  async handler(ctx): Promise<Team | null> {
    const { auth } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const active = caller.session.activeOrganizationId;
    if (ctx.body.teamId === null || ctx.body.teamId === undefined) {
      await writeActiveOrSay(auth, ctx.cookies, caller, active, null);
      return null;
    }
    const organizationId = parseId(active);
    if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
    const team = await requireTeam(auth, ctx.body.teamId, organizationId);
    if (!(await findTeamMember(auth, team._id, caller.user._id))) throw new AuthError("TEAM_NOT_A_MEMBER");
    await writeActiveOrSay(auth, ctx.cookies, caller, active, team._id.toHexString());
    return toTeam(team);
  },
});
