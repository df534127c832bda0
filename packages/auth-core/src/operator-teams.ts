/**
 * An operator's team work for `@tessera/auth-core/operator` (`tessera orgs teams`): the team
 * endpoints' own services (features/organization/teams), so every limit and rule of the data holds —
 * teams.maximumTeams and maximumMembersPerTeam, the last team kept unless allowed, only members of
 * the organization in its teams, team roles from the configured table — with the operator as actor.
 * The operator acts as the organization's owners do: the team-admin rules of the endpoints
 * (who may grant what) are for members and do not apply.
 */

import type { AuditAction } from "./contracts/admin-fields.ts";
import { teamNameField } from "./contracts/organization-fields.ts";
import type { Team, TeamMember } from "./contracts/organization-models.ts";
import type { Auth } from "./create-auth.ts";
import type { OrganizationDoc, TeamDoc } from "./db/documents.ts";
import { parseId } from "./db/ids.ts";
import { AuthError } from "./errors/auth-error.ts";
import { recordAuditEvent } from "./features/admin/index.ts";
import {
  addTeamMemberWithinLimit,
  createTeamWithinLimit,
  findMember,
  findTeamByIdOrName,
  forgetActiveTeam,
  listTeamMembers,
  listTeams,
  removeTeamUnlessLast,
  setTeamMemberRole,
  TEAM_MEMBER_ROLE,
  takeUserOutOfTeam,
  teamRoleTablesOf,
  toTeam,
  toTeamMember,
} from "./features/organization/index.ts";

export type { Team, TeamMember };

/** What `tessera orgs teams` lists at most, per organization and per team. */
const LIST_LIMIT = 1000;

/** Refusals are AuthErrors (catalogue code and message), as from auth.api. */
export function createOperatorTeams(auth: Auth, actor: string) {
  const context = auth.context;
  const audit = (
    action: Extract<AuditAction, `organization.${string}-team-member${string}`>,
    team: TeamDoc,
    userId: string,
    details: Record<string, unknown> = {},
  ) =>
    recordAuditEvent(context, {
      action,
      actorId: null,
      actor,
      subjectId: parseId(userId),
      details: {
        organizationId: team.organizationId.toHexString(),
        teamId: team._id.toHexString(),
        ...details,
      },
      ip: null,
      userAgent: null,
    });
  const checkedRole = (role: string): string => {
    if (!Object.hasOwn(teamRoleTablesOf(context).team, role)) throw new AuthError("MEMBER_ROLE_NOT_FOUND");
    return role;
  };
  const requireUserId = (userId: string) => {
    const id = parseId(userId);
    if (!id) throw new AuthError("USER_NOT_MEMBER");
    return id;
  };
  return {
    /** A team of the organization by id or exact name (any case); null when none. */
    findTeam(org: OrganizationDoc, idOrName: string): Promise<TeamDoc | null> {
      return findTeamByIdOrName(context, org._id, idOrName);
    },
    async list(org: OrganizationDoc): Promise<(Team & { members: number })[]> {
      const teams = await listTeams(context, org._id, LIST_LIMIT);
      return Promise.all(
        teams.map(async (team) => ({
          ...toTeam(team),
          members: (await listTeamMembers(context, team._id, LIST_LIMIT, 0)).length,
        })),
      );
    },
    async create(org: OrganizationDoc, name: string): Promise<Team> {
      const parsed = teamNameField.safeParse(name);
      if (!parsed.success)
        throw new AuthError("VALIDATION_ERROR", {
          message: `Invalid request: name: ${parsed.error.issues[0]!.message}`,
        });
      const team = await createTeamWithinLimit(context, org._id, parsed.data);
      if (!team) throw new AuthError("TEAM_LIMIT_REACHED");
      return toTeam(team);
    },
    async remove(team: TeamDoc): Promise<void> {
      const removed = await removeTeamUnlessLast(context, team);
      if (!removed.ok)
        throw new AuthError(removed.reason === "last-team" ? "UNABLE_TO_REMOVE_LAST_TEAM" : "TEAM_NOT_FOUND");
      await forgetActiveTeam(context, team._id);
    },
    async members(team: TeamDoc): Promise<TeamMember[]> {
      return (await listTeamMembers(context, team._id, LIST_LIMIT, 0)).map(toTeamMember);
    },
    async addMember(team: TeamDoc, userId: string, role = TEAM_MEMBER_ROLE): Promise<TeamMember> {
      checkedRole(role);
      const member = await findMember(context, team.organizationId, requireUserId(userId));
      if (!member) throw new AuthError("USER_NOT_MEMBER");
      const added = await addTeamMemberWithinLimit(context, team, member.userId, role);
      if (!added.ok)
        throw new AuthError(
          added.reason === "limit" ? "TEAM_MEMBER_LIMIT_REACHED" : "TEAM_MEMBER_ALREADY_EXISTS",
        );
      await audit("organization.add-team-member", team, userId, { role });
      return toTeamMember(added.value);
    },
    async removeMember(team: TeamDoc, userId: string): Promise<void> {
      const id = requireUserId(userId);
      if (!(await takeUserOutOfTeam(context, team._id, id))) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
      await forgetActiveTeam(context, team._id, id);
      await audit("organization.remove-team-member", team, userId);
    },
    async setRole(team: TeamDoc, userId: string, role: string): Promise<TeamMember> {
      checkedRole(role);
      const updated = await setTeamMemberRole(context, team._id, requireUserId(userId), role);
      if (!updated) throw new AuthError("TEAM_MEMBER_NOT_FOUND");
      await audit("organization.set-team-member-role", team, userId, { role });
      return toTeamMember(updated);
    },
  };
}
