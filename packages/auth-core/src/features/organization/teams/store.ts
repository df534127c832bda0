import type { ObjectId } from "mongodb";
import type { Collections } from "../../../db/collections.ts";
import { insertManyIgnoringDuplicates } from "../../../db/connect.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { findPage } from "../../../db/find-page.ts";
import { type StoredRows, storedRowsOf } from "../../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  eventOf,
  outboxWrittenBy,
  pushEvents,
  startRelay,
  WITHOUT_OUTBOX,
} from "../../events/index.ts";

/**
 * Teams and team members: the only MongoDB access for them. A team's and a team membership's own
 * writes carry their events (features/events); the deletions that follow an organization's, a
 * team's or a member's carry none of their own (that deletion's event stands for them).
 */

export const teamEventSource: EventSource = { name: "teams", collection: (collections) => collections.teams };
export const teamMemberEventSource: EventSource = {
  name: "teamMembers",
  collection: (collections) => collections.teamMembers,
};

function teamEventOf(
  type: "team.created" | "team.updated" | "team.deleted",
  team: Pick<TeamDoc, "_id" | "organizationId" | "name">,
  at: Date,
): EventDoc {
  const data = {
    teamId: team._id.toHexString(),
    organizationId: team.organizationId.toHexString(),
    name: team.name,
  };
  return eventOf(type, at, { organizationId: team.organizationId }, data);
}

function teamMemberEventOf(
  type: "team_member.added" | "team_member.removed",
  row: Pick<TeamMemberDoc, "teamId" | "organizationId" | "userId">,
  at: Date,
): EventDoc {
  const data = {
    teamId: row.teamId.toHexString(),
    organizationId: row.organizationId.toHexString(),
    userId: row.userId.toHexString(),
  };
  return eventOf(type, at, { organizationId: row.organizationId, userId: row.userId }, data);
}

export async function insertTeam(collections: Collections, doc: TeamDoc): Promise<void> {
  const events = [teamEventOf("team.created", doc, collections.eventHub.now())];
  await collections.teams.insertOne({ ...doc, _events: events });
  startRelay(collections, events);
}

export function findTeamById(collections: Collections, id: ObjectId): Promise<TeamDoc | null> {
  return collections.teams.findOne({ _id: id }, { projection: WITHOUT_OUTBOX });
}

/** Teams by id that belong to the organization (ids of other organizations are simply not found). */
export function findOrganizationTeams(
  collections: Collections,
  organizationId: ObjectId,
  ids: readonly ObjectId[],
): Promise<TeamDoc[]> {
  return collections.teams.find({ organizationId, _id: { $in: [...ids] } }).toArray();
}

export function countTeams(collections: Collections, organizationId: ObjectId): Promise<number> {
  return collections.teams.countDocuments({ organizationId });
}

/**
 * Teams or team memberships whose `field` is one of `values` (an operator's repair of orphans);
 * neither is part of a listing held. How many went.
 */
export async function deleteTeamRowsWhere(
  collections: Collections,
  collection: "teams" | "teamMembers",
  field: "userId" | "organizationId" | "teamId",
  values: readonly unknown[],
): Promise<number> {
  const filter = { [field]: { $in: [...values] } };
  const result =
    collection === "teams"
      ? await collections.teams.deleteMany(filter)
      : await collections.teamMembers.deleteMany(filter);
  return result.deletedCount;
}

/** Every team of the organization (as many as `teams.maximumTeams` allows). */
export function listAllTeams(collections: Collections, organizationId: ObjectId): Promise<TeamDoc[]> {
  return collections.teams.find({ organizationId }).toArray();
}

/** Oldest first, one page. */
export function listTeams(
  collections: Collections,
  organizationId: ObjectId,
  limit: number,
  offset = 0,
): Promise<TeamDoc[]> {
  return findPage(collections.teams, {
    filter: { organizationId },
    sort: { createdAt: 1, _id: 1 },
    skip: offset,
    limit,
  });
}

/** Read first: team.updated names the team's organization. Null when the team is gone. */
export async function updateTeamFields(
  collections: Collections,
  id: ObjectId,
  fields: Partial<Pick<TeamDoc, "name" | "updatedAt">>,
): Promise<TeamDoc | null> {
  const team = await findTeamById(collections, id);
  if (!team) return null;
  const events =
    fields.name === undefined
      ? []
      : [teamEventOf("team.updated", { ...team, name: fields.name }, collections.eventHub.now())];
  const updated = outboxWrittenBy(
    collections,
    collections.teams,
    await collections.teams.findOneAndUpdate(
      { _id: team._id },
      { $set: fields, ...pushEvents(events) },
      { returnDocument: "after" },
    ),
  );
  if (updated && events.length > 0) startRelay(collections, events);
  return updated;
}

/**
 * Deletes the team row its caller holds (read by the guard, or just inserted): team.deleted is made
 * from that row, so no second read. True for the one caller whose delete removed it.
 */
export async function deleteTeamRow(
  collections: Collections,
  team: Pick<TeamDoc, "_id" | "organizationId" | "name">,
): Promise<boolean> {
  const event = teamEventOf("team.deleted", team, collections.eventHub.now());
  const removed = await deleteRowsWithEvents(
    collections,
    teamEventSource,
    [{ _id: team._id, event }],
    (ids) => collections.teams.deleteMany({ _id: { $in: ids } }).then((result) => result.deletedCount),
  );
  return removed === 1;
}

export async function deleteOrganizationTeams(
  collections: Collections,
  organizationId: ObjectId,
): Promise<void> {
  await collections.teams.deleteMany({ organizationId });
}

/** Throws the driver's duplicate-key error for a second membership or a taken seat. */
export async function insertTeamMember(collections: Collections, doc: TeamMemberDoc): Promise<void> {
  const events = [teamMemberEventOf("team_member.added", doc, collections.eventHub.now())];
  await collections.teamMembers.insertOne({ ...doc, _events: events });
  startRelay(collections, events);
}

export function findTeamMember(
  collections: Collections,
  teamId: ObjectId,
  userId: ObjectId,
): Promise<TeamMemberDoc | null> {
  return collections.teamMembers.findOne({ teamId, userId });
}

export function countTeamMembers(collections: Collections, teamId: ObjectId): Promise<number> {
  return collections.teamMembers.countDocuments({ teamId });
}

export async function listTeamSeats(
  collections: Collections,
  teamId: ObjectId,
  limit: number,
): Promise<number[]> {
  const rows = await collections.teamMembers
    .find({ teamId, seat: { $lt: limit } }, { projection: { seat: 1 } })
    .toArray();
  return rows.map((row) => row.seat);
}

/** The team's highest seat (-1 when empty): one row through the unique (teamId, seat) index. */
export async function findHighestTeamSeat(collections: Collections, teamId: ObjectId): Promise<number> {
  const [row] = await collections.teamMembers
    .find({ teamId }, { projection: { seat: 1 } })
    .sort({ seat: -1 })
    .limit(1)
    .toArray();
  return row ? row.seat : -1;
}

export function listTeamMembers(
  collections: Collections,
  teamId: ObjectId,
  limit: number,
  offset: number,
): Promise<TeamMemberDoc[]> {
  return collections.teamMembers
    .find({ teamId })
    .sort({ createdAt: 1, _id: 1 })
    .skip(offset)
    .limit(limit)
    .toArray();
}

export async function deleteTeamMember(
  collections: Collections,
  teamId: ObjectId,
  userId: ObjectId,
): Promise<boolean> {
  const rows = await collections.teamMembers
    .find({ teamId, userId }, { projection: { _id: 1, teamId: 1, organizationId: 1, userId: 1 } })
    .toArray();
  const at = collections.eventHub.now();
  const removed = await deleteRowsWithEvents(
    collections,
    teamMemberEventSource,
    rows.map((row) => ({ _id: row._id, event: teamMemberEventOf("team_member.removed", row, at) })),
    (ids) =>
      collections.teamMembers.deleteMany({ teamId, userId, _id: { $in: ids } }).then((r) => r.deletedCount),
  );
  return removed >= 1;
}

/** Sets a team membership's role; the row after the write, null when the user is not in the team. */
export function updateTeamMemberRole(
  collections: Collections,
  teamId: ObjectId,
  userId: ObjectId,
  role: string,
): Promise<TeamMemberDoc | null> {
  return collections.teamMembers.findOneAndUpdate(
    { teamId, userId },
    { $set: { role } },
    { returnDocument: "after" },
  );
}

export async function deleteTeamMembersOfTeam(collections: Collections, teamId: ObjectId): Promise<void> {
  await collections.teamMembers.deleteMany({ teamId });
}

/** A member leaving or removed leaves the organization's teams too (Better Auth complaint #6). */
export async function deleteUserTeamMemberships(
  collections: Collections,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<void> {
  await collections.teamMembers.deleteMany({ organizationId, userId });
}

/**
 * The user's team memberships in these organizations, or in every organization without
 * `organizationIds` (deleting the user; the `organizationId, userId` and `userId` indexes).
 * Team memberships are not part of get-full-organization's listing: nothing to bump.
 */
export async function deleteTeamMembershipsOfUser(
  collections: Collections,
  userId: ObjectId,
  organizationIds?: readonly ObjectId[],
): Promise<number> {
  const filter =
    organizationIds === undefined ? { userId } : { organizationId: { $in: [...organizationIds] }, userId };
  const result = await collections.teamMembers.deleteMany(filter);
  return result.deletedCount;
}

export async function deleteOrganizationTeamMembers(
  collections: Collections,
  organizationId: ObjectId,
): Promise<void> {
  await collections.teamMembers.deleteMany({ organizationId });
}

/** A user's team rows in every organization, at most `limit` (the user's data export; index 0011). */
export function findUserTeamMemberships(
  collections: Collections,
  userId: ObjectId,
  limit: number,
): Promise<TeamMemberDoc[]> {
  return collections.teamMembers.find({ userId }).limit(limit).toArray();
}

/**
 * Rows an operator imports (`tessera import`), unordered: returns the positions a unique index
 * refused. Teams are read on every get-full-organization: nothing to bump.
 */
export async function insertTeamsInBulk(collections: Collections, docs: TeamDoc[]): Promise<Set<number>> {
  const refused = await insertManyIgnoringDuplicates(collections.teams, docs);
  return refused;
}

/**
 * Rows an operator imports (`tessera import`), unordered: returns the positions a unique index
 * refused. Team memberships are not listed by get-full-organization: nothing to bump.
 */
export async function insertTeamMembersInBulk(
  collections: Collections,
  docs: TeamMemberDoc[],
): Promise<Set<number>> {
  const refused = await insertManyIgnoringDuplicates(collections.teamMembers, docs);
  return refused;
}

/** `tessera doctor`'s view of the teams (db/stored-rows.ts): reads only, deletes go through deleteOrphanRows. */
export function teamRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.teams);
}

/** `tessera doctor`'s view of the team memberships (db/stored-rows.ts). */
export function teamMemberRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.teamMembers);
}
