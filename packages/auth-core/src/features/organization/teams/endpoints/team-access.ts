import type { AuthContext } from "../../../../context.ts";
import type { MemberDoc, TeamDoc } from "../../../../db/documents.ts";
import { AuthError } from "../../../../errors/auth-error.ts";
import type { ErrorCode } from "../../../../errors/catalogue.ts";
import type { SessionWithUser } from "../../../session/index.ts";
import {
  assertTeamsEnabled,
  requireCaller,
  requireMembership,
  requireTeam,
  resolveOrganizationId,
} from "../../endpoints/guards.ts";
import { canActOnTeam, type TeamAction, type TeamActor, teamRoleOf } from "../rules.ts";
import { findTeamMember, teamRoleTablesOf } from "../service.ts";

/**
 * The guard of every endpoint that changes a team: teams are on, the caller is signed in, the team
 * exists (in `organizationId` when the body names one), and the caller is a member of its
 * organization whose organization role, or whose role in this team, allows `action` (teams/rules.ts
 * canActOnTeam) — refused with `refusal` otherwise. The caller's team row is read only when the
 * organization role does not suffice. Returns the team, the caller's membership and the actor.
 */
export async function authorizeTeamChange(
  auth: AuthContext,
  session: SessionWithUser | null,
  body: { teamId: string; organizationId?: string | undefined },
  action: TeamAction,
  refusal: ErrorCode,
): Promise<{ team: TeamDoc; member: MemberDoc; actor: TeamActor }> {
  assertTeamsEnabled(auth);
  const caller = requireCaller(session);
  const expected =
    body.organizationId === undefined ? undefined : resolveOrganizationId(null, body.organizationId);
  const team = await requireTeam(auth, body.teamId, expected);
  const member = await requireMembership(auth, team.organizationId, caller.user._id);
  const tables = teamRoleTablesOf(auth);
  const teamId = team._id.toHexString();
  const actor: TeamActor = { organizationRoles: member.role, teamRoles: {} };
  if (canActOnTeam(actor, action, teamId, tables)) return { team, member, actor };
  const row = await findTeamMember(auth, team._id, caller.user._id);
  if (row) actor.teamRoles = { [teamId]: teamRoleOf(row) };
  if (!canActOnTeam(actor, action, teamId, tables)) throw new AuthError(refusal);
  return { team, member, actor };
}
