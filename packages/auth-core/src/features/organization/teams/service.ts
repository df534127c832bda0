import type { ResolvedOptions } from "../../../config/options.ts";
import type { AuthContext } from "../../../context.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { ObjectId, parseId } from "../../../db/ids.ts";
import { clearActiveTeamOfSessions } from "../../session/index.ts";
import { buildRoleTable } from "../members/rules.ts";
import { claimSeat, type SeatResult } from "../members/seats.ts";
import { insertWithinLimit } from "../organizations/bounded-insert.ts";
import { buildTeamRoleTable, TEAM_MEMBER_ROLE, type TeamRoleTables } from "./rules.ts";
import * as store from "./store.ts";

/**
 * Creates a team within `teams.maximumTeams` (bounded-insert.ts: parallel creates cannot pass it).
 * Null when the limit is reached. The caller reads the organization again afterwards (create-team:
 * deleted meanwhile, its cascade may have run before our insert, so the team goes too).
 */
export async function createTeamWithinLimit(
  auth: AuthContext,
  organizationId: ObjectId,
  name: string,
): Promise<TeamDoc | null> {
  const { collections } = auth;
  const { maximumTeams } = auth.options.organization.teams;
  const team: TeamDoc = { _id: new ObjectId(), name, organizationId, createdAt: auth.now(), updatedAt: null };
  if (maximumTeams === undefined) {
    await store.insertTeam(collections, team);
    return team;
  }
  return insertWithinLimit<TeamDoc>(
    {
      count: () => store.countTeams(collections, organizationId),
      insert: async () => {
        await store.insertTeam(collections, team);
        return team;
      },
      undo: async () => {
        await store.deleteTeamRow(collections, team);
      },
    },
    maximumTeams,
  );
}

/** Takes back a team this request just created (its organization went meanwhile). */
export async function deleteTeam(auth: AuthContext, team: TeamDoc): Promise<void> {
  await store.deleteTeamRow(auth.collections, team);
}

const teamRoleTables = new WeakMap<ResolvedOptions, TeamRoleTables>();

/** The organization's and the teams' role tables of this instance, built once (teams/rules.ts). */
export function teamRoleTablesOf(auth: AuthContext): TeamRoleTables {
  let tables = teamRoleTables.get(auth.options);
  if (!tables) {
    const { roles, teams, creatorRole } = auth.options.organization;
    tables = {
      organization: buildRoleTable(roles, creatorRole),
      team: buildTeamRoleTable(roles, teams.roles),
    };
    teamRoleTables.set(auth.options, tables);
  }
  return tables;
}

/** Adds a user to a team within `teams.maximumMembersPerTeam` (seats.ts: exact under races). */
export function addTeamMemberWithinLimit(
  auth: AuthContext,
  team: TeamDoc,
  userId: ObjectId,
  role: string = TEAM_MEMBER_ROLE,
): Promise<SeatResult<TeamMemberDoc>> {
  const { collections } = auth;
  const limit = auth.options.organization.teams.maximumMembersPerTeam ?? Number.POSITIVE_INFINITY;
  return claimSeat<TeamMemberDoc>(
    {
      count: () => store.countTeamMembers(collections, team._id),
      takenSeats: () => store.listTeamSeats(collections, team._id, limit),
      highestSeat: () => store.findHighestTeamSeat(collections, team._id),
      isAlreadyIn: async () => (await store.findTeamMember(collections, team._id, userId)) !== null,
      insert: async (seat) => {
        const doc: TeamMemberDoc = {
          _id: new ObjectId(),
          teamId: team._id,
          organizationId: team.organizationId,
          userId,
          createdAt: auth.now(),
          seat,
          role,
        };
        await store.insertTeamMember(collections, doc);
        return doc;
      },
      remove: async (doc) => {
        await store.deleteTeamMember(collections, doc.teamId, doc.userId);
      },
    },
    limit,
  );
}

/**
 * Puts a new member into the teams of an invitation or add-member. All or nothing: when one team is
 * full, the memberships just added are taken back and the answer is false (team limits are
 * enforced on acceptance). Already being in a team counts as joined.
 */
export async function joinTeams(
  auth: AuthContext,
  teams: readonly TeamDoc[],
  userId: ObjectId,
): Promise<boolean> {
  const joined: TeamDoc[] = [];
  for (const team of teams) {
    const result = await addTeamMemberWithinLimit(auth, team, userId);
    if (result.ok) joined.push(team);
    else if (result.reason === "limit") {
      for (const added of joined) await store.deleteTeamMember(auth.collections, added._id, userId);
      return false;
    }
  }
  return true;
}

/** A team by id; null when there is none. */
export function findTeam(auth: AuthContext, teamId: ObjectId): Promise<TeamDoc | null> {
  return store.findTeamById(auth.collections, teamId);
}

/** Teams by id of that organization (ids of other organizations are simply not found). */
export function findOrganizationTeams(
  auth: AuthContext,
  organizationId: ObjectId,
  ids: readonly ObjectId[],
): Promise<TeamDoc[]> {
  return store.findOrganizationTeams(auth.collections, organizationId, ids);
}

/** Oldest first, one page. */
export function listTeams(
  auth: AuthContext,
  organizationId: ObjectId,
  limit: number,
  offset = 0,
): Promise<TeamDoc[]> {
  return store.listTeams(auth.collections, organizationId, limit, offset);
}

/** The user's row in the team; null when they are not in it. */
export function findTeamMember(
  auth: AuthContext,
  teamId: ObjectId,
  userId: ObjectId,
): Promise<TeamMemberDoc | null> {
  return store.findTeamMember(auth.collections, teamId, userId);
}

export function listTeamMembers(
  auth: AuthContext,
  teamId: ObjectId,
  limit: number,
  offset: number,
): Promise<TeamMemberDoc[]> {
  return store.listTeamMembers(auth.collections, teamId, limit, offset);
}

/** Sets a team member's team role; null when the user is not in the team. */
export function setTeamMemberRole(
  auth: AuthContext,
  teamId: ObjectId,
  userId: ObjectId,
  role: string,
): Promise<TeamMemberDoc | null> {
  return store.updateTeamMemberRole(auth.collections, teamId, userId, role);
}

/** Renames a team; null when it is gone. */
export function renameTeam(auth: AuthContext, teamId: ObjectId, name: string): Promise<TeamDoc | null> {
  return store.updateTeamFields(auth.collections, teamId, { name, updatedAt: auth.now() });
}

/** Takes a user out of a team; false when they were not in it. */
export function takeUserOutOfTeam(auth: AuthContext, teamId: ObjectId, userId: ObjectId): Promise<boolean> {
  return store.deleteTeamMember(auth.collections, teamId, userId);
}

/**
 * Removes a team and its memberships, unless it is the organization's last team and
 * `teams.allowRemovingAllTeams` is off. Delete first, then count what is left: a count before the
 * delete cannot see a parallel removal (two removals both saw two teams and left none). None left →
 * the team comes back, before any of its memberships went. Parallel removals may all refuse, never
 * all pass. The caller clears it from members and sessions (remove-team).
 */
export async function removeTeamUnlessLast(
  auth: AuthContext,
  team: TeamDoc,
): Promise<{ ok: true } | { ok: false; reason: "not-found" | "last-team" }> {
  if (!(await store.deleteTeamRow(auth.collections, team))) return { ok: false, reason: "not-found" };
  if (
    !auth.options.organization.teams.allowRemovingAllTeams &&
    (await store.countTeams(auth.collections, team.organizationId)) === 0
  ) {
    await store.insertTeam(auth.collections, team);
    return { ok: false, reason: "last-team" };
  }
  await store.deleteTeamMembersOfTeam(auth.collections, team._id);
  return { ok: true };
}

/** The team stops being active on sessions (every session, or one user's). */
export function forgetActiveTeam(auth: AuthContext, teamId: ObjectId, userId?: ObjectId): Promise<void> {
  return clearActiveTeamOfSessions(auth, teamId.toHexString(), userId);
}

/** A member leaving or removed leaves the organization's teams too (Better Auth complaint #6). */
export function deleteUserTeamMemberships(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<void> {
  return store.deleteUserTeamMemberships(auth.collections, organizationId, userId);
}

/** The user's team memberships in these organizations, or in all of them (deleting the user). */
export function deleteTeamMembershipsOfUser(
  auth: AuthContext,
  userId: ObjectId,
  organizationIds?: readonly ObjectId[],
): Promise<number> {
  return store.deleteTeamMembershipsOfUser(auth.collections, userId, organizationIds);
}

/** The organization's team memberships, then its teams (its delete cascade). */
export async function deleteOrganizationTeams(auth: AuthContext, organizationId: ObjectId): Promise<void> {
  await store.deleteOrganizationTeamMembers(auth.collections, organizationId);
  await store.deleteOrganizationTeams(auth.collections, organizationId);
}

/** A team of the organization by id, else by exact name (any case); null when none. */
export async function findTeamByIdOrName(
  auth: AuthContext,
  organizationId: ObjectId,
  idOrName: string,
): Promise<TeamDoc | null> {
  const id = parseId(idOrName);
  if (id) {
    const [byId] = await store.findOrganizationTeams(auth.collections, organizationId, [id]);
    if (byId) return byId;
  }
  const name = idOrName.trim().toLowerCase();
  const teams = await store.listAllTeams(auth.collections, organizationId);
  return teams.find((team) => team.name.toLowerCase() === name) ?? null;
}
