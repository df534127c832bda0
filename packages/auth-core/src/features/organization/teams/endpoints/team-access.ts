import type { AuthContext } from "../../../../context.ts";
import type { MemberDoc, TeamDoc } from "../../../../db/documents.ts";
import type { ErrorCode } from "../../../../errors/catalogue.ts";
import type { SessionWithUser } from "../../../session/index.ts";
import {
  assertPermission,
  assertTeamsEnabled,
  requireCaller,
  requireMembership,
  requireTeam,
  resolveOrganizationId,
} from "../../endpoints/guards.ts";

/**
 * The guard of every endpoint that changes a team: teams are on, the caller is signed in, the team
 * exists (in `organizationId` when the body names one), and the caller is a member of its
 * organization holding `team:<action>` — refused with `refusal` otherwise. Returns the team and the
 * caller's membership, read in that order.
 */
export async function authorizeTeamChange(
  auth: AuthContext,
  session: SessionWithUser | null,
  body: { teamId: string; organizationId?: string | undefined },
  action: "update" | "delete",
  refusal: ErrorCode,
): Promise<{ team: TeamDoc; member: MemberDoc }> {
  assertTeamsEnabled(auth);
  const caller = requireCaller(session);
  const expected =
    body.organizationId === undefined ? undefined : resolveOrganizationId(null, body.organizationId);
  const team = await requireTeam(auth, body.teamId, expected);
  const member = await requireMembership(auth, team.organizationId, caller.user._id);
  assertPermission(auth, member, { team: [action] }, refusal);
  return { team, member };
}
