import { ObjectId } from "mongodb";
import type { AuthContext } from "../../../context.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { claimSeat, type SeatResult } from "../members/seats.ts";
import { findOrganizationById } from "../members/store.ts";
import { insertWithinLimit } from "../organizations/bounded-insert.ts";
import {
  countTeamMembers,
  countTeams,
  deleteTeamById,
  deleteTeamMember,
  findHighestTeamSeat,
  findOrganizationTeams,
  findTeamById,
  findTeamMember,
  insertTeam,
  insertTeamMember,
  listTeamSeats,
} from "./store.ts";

/**
 * Creates a team within `teams.maximumTeams` (bounded-insert.ts: parallel creates cannot pass it).
 * Then the organization is read again: deleted meanwhile (its cascade may have run before our
 * insert), the team goes too and the answer is the organization's not-found.
 */
export async function createTeamWithinLimit(
  auth: AuthContext,
  organizationId: ObjectId,
  name: string,
): Promise<TeamDoc> {
  const { collections } = auth;
  const { maximumTeams } = auth.options.organization.teams;
  const team: TeamDoc = { _id: new ObjectId(), name, organizationId, createdAt: auth.now(), updatedAt: null };
  if (maximumTeams === undefined) await insertTeam(collections, team);
  else {
    const inserted = await insertWithinLimit<TeamDoc>(
      {
        count: () => countTeams(collections, organizationId),
        insert: async () => {
          await insertTeam(collections, team);
          return team;
        },
        undo: async () => {
          await deleteTeamById(collections, team._id);
        },
      },
      maximumTeams,
    );
    if (!inserted) throw new AuthError("TEAM_LIMIT_REACHED");
  }
  if (!(await findOrganizationById(collections, organizationId))) {
    await deleteTeamById(collections, team._id);
    throw new AuthError("ORGANIZATION_NOT_FOUND");
  }
  return team;
}

/** Team endpoints exist only with teams enabled. */
export function assertTeamsEnabled(auth: AuthContext): void {
  if (!auth.options.organization.teams.enabled) throw new AuthError("NOT_FOUND");
}

/**
 * Teams named by id that must all belong to the organization (a team id of another organization
 * is "Team not found", security-matrix I12).
 */
export async function requireOrganizationTeams(
  auth: AuthContext,
  organizationId: ObjectId,
  teamIds: readonly string[],
): Promise<TeamDoc[]> {
  if (teamIds.length === 0) return [];
  // With teams off there are no teams to name (leftover rows from when they were on included).
  if (!auth.options.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
  const ids = teamIds.map((id) => parseId(id));
  if (ids.some((id) => id === null)) throw new AuthError("TEAM_NOT_FOUND");
  const teams = await findOrganizationTeams(auth.collections, organizationId, ids as ObjectId[]);
  if (teams.length !== new Set(teamIds).size) throw new AuthError("TEAM_NOT_FOUND");
  return teams;
}

/** A team by id, only when it belongs to the expected organization (when one is given). */
export async function requireTeam(
  auth: AuthContext,
  teamId: string,
  organizationId?: ObjectId,
): Promise<TeamDoc> {
  const id = parseId(teamId);
  const team = id ? await findTeamById(auth.collections, id) : null;
  if (!team || (organizationId && !team.organizationId.equals(organizationId)))
    throw new AuthError("TEAM_NOT_FOUND");
  return team;
}

/** Adds a user to a team within `teams.maximumMembersPerTeam` (seats.ts: exact under races). */
export function addTeamMemberWithinLimit(
  auth: AuthContext,
  team: TeamDoc,
  userId: ObjectId,
): Promise<SeatResult<TeamMemberDoc>> {
  const { collections } = auth;
  const limit = auth.options.organization.teams.maximumMembersPerTeam ?? Number.POSITIVE_INFINITY;
  return claimSeat<TeamMemberDoc>(
    {
      count: () => countTeamMembers(collections, team._id),
      takenSeats: () => listTeamSeats(collections, team._id, limit),
      highestSeat: () => findHighestTeamSeat(collections, team._id),
      isAlreadyIn: async () => (await findTeamMember(collections, team._id, userId)) !== null,
      insert: async (seat) => {
        const doc: TeamMemberDoc = {
          _id: new ObjectId(),
          teamId: team._id,
          organizationId: team.organizationId,
          userId,
          createdAt: auth.now(),
          seat,
        };
        await insertTeamMember(collections, doc);
        return doc;
      },
      remove: async (doc) => {
        await deleteTeamMember(collections, doc.teamId, doc.userId);
      },
    },
    limit,
  );
}

/**
 * Puts a new member into the teams of an invitation or add-member. All or nothing: when one team is
 * full, the memberships just added are taken back and the answer is false (SPEC §5: team limits are
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
      for (const added of joined) await deleteTeamMember(auth.collections, added._id, userId);
      return false;
    }
  }
  return true;
}
