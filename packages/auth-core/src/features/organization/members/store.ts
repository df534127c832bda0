import type { Filter, ObjectId } from "mongodb";
import type { Collections } from "../../../db/collections.ts";
import { insertManyIgnoringDuplicates } from "../../../db/connect.ts";
import type { MemberDoc } from "../../../db/documents.ts";
import { findPage, type PageQuery } from "../../../db/find-page.ts";
import { runListingBump } from "../../../db/listing-version.ts";
import { findRawPage, type RawPage } from "../../../db/raw-page.ts";
import { listItemPattern } from "../../../db/regex.ts";
import { type StoredRows, storedRowsOf } from "../../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  eventOf,
  pushEvents,
  startRelay,
} from "../../events/index.ts";
import { bumpListings } from "../organizations/store.ts";

/**
 * Members: the owner of `members` (their users are read through features/users). Each write
 * bumps the listing version of the organization it changed (organizations/store.ts bumpListings).
 */

/** What a write to one member row needs to know of it (its event names the user). */
export type MemberRef = Pick<MemberDoc, "_id" | "organizationId" | "userId">;

/** The members' events (features/events): added with the insert, updated with a role, removed with a delete. */
export const memberEventSource: EventSource = {
  name: "members",
  collection: (collections) => collections.members,
};

function memberEventOf(
  type: "member.added" | "member.updated" | "member.removed",
  member: MemberRef & Pick<MemberDoc, "role">,
  at: Date,
): EventDoc {
  return eventOf(
    type,
    at,
    { organizationId: member.organizationId, userId: member.userId },
    {
      memberId: member._id.toHexString(),
      organizationId: member.organizationId.toHexString(),
      userId: member.userId.toHexString(),
      role: member.role,
    },
  );
}

/** Throws the driver's duplicate-key error for a second membership or a taken seat. */
export async function insertMember(collections: Collections, doc: MemberDoc): Promise<void> {
  await insertCreatorMember(collections, doc);
  await bumpListings(collections, [doc.organizationId]);
}

/**
 * The creator's row, written before its organization exists (organizations/service.ts): no
 * listing of it can be held yet, so there is no version to bump.
 */
export async function insertCreatorMember(collections: Collections, doc: MemberDoc): Promise<void> {
  const events = [memberEventOf("member.added", doc, collections.eventHub.now())];
  await collections.members.insertOne({ ...doc, _events: events });
  startRelay(collections, events);
}

export function findMember(
  collections: Collections,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<MemberDoc | null> {
  return collections.members.findOne({ organizationId, userId });
}

/** The member only when it belongs to that organization (no cross-organization read by id). */
export function findMemberById(
  collections: Collections,
  organizationId: ObjectId,
  memberId: ObjectId,
): Promise<MemberDoc | null> {
  return collections.members.findOne({ _id: memberId, organizationId });
}

/** Every member of the organization, oldest first (an operator's listing: `tessera orgs show`). */
export function listAllMembers(collections: Collections, organizationId: ObjectId): Promise<MemberDoc[]> {
  return collections.members.find({ organizationId }).sort({ createdAt: 1, _id: 1 }).toArray();
}

export function countMembers(collections: Collections, organizationId: ObjectId): Promise<number> {
  return collections.members.countDocuments({ organizationId });
}

export function countUserMemberships(collections: Collections, userId: ObjectId): Promise<number> {
  return collections.members.countDocuments({ userId });
}

/** The seats taken below `limit` (only read when a seat claim lost a race). */
export async function listMemberSeats(
  collections: Collections,
  organizationId: ObjectId,
  limit: number,
): Promise<number[]> {
  const rows = await collections.members
    .find({ organizationId, seat: { $lt: limit } }, { projection: { seat: 1 } })
    .toArray();
  return rows.map((row) => row.seat);
}

/** A user's memberships, oldest first, one page (`_id` breaks ties so pages do not overlap). */
export function listUserMemberships(
  collections: Collections,
  userId: ObjectId,
  limit: number,
  offset = 0,
): Promise<MemberDoc[]> {
  return collections.members
    .find({ userId })
    .sort({ createdAt: 1, _id: 1 })
    .skip(offset)
    .limit(limit)
    .toArray();
}

export interface MemberPage {
  limit: number;
  offset: number;
  sortBy: "createdAt" | "role";
  sortDirection: "asc" | "desc";
}

/** One page, never more (`_id` breaks ties so pages do not overlap). */
export function listMembersPage(
  collections: Collections,
  organizationId: ObjectId,
  page: MemberPage,
): Promise<MemberDoc[]> {
  return findPage(collections.members, membersPageQuery(organizationId, page));
}

/** listMembersPage, its documents left as BSON (db/raw-page.ts). */
export function listMembersRawPage(
  collections: Collections,
  organizationId: ObjectId,
  page: MemberPage,
): Promise<RawPage<MemberDoc>> {
  return findRawPage(collections.members, membersPageQuery(organizationId, page));
}

function membersPageQuery(organizationId: ObjectId, page: MemberPage): PageQuery<MemberDoc> {
  const direction = page.sortDirection === "asc" ? 1 : -1;
  return {
    filter: { organizationId },
    sort: { [page.sortBy]: direction, _id: direction },
    skip: page.offset,
    limit: page.limit,
  };
}

/** Members holding `role` (in their comma separated list). */
export function countMembersWithRole(
  collections: Collections,
  organizationId: ObjectId,
  role: string,
): Promise<number> {
  return collections.members.countDocuments({
    organizationId,
    role: { $regex: listItemPattern(role) },
  });
}

export async function setMemberRole(
  collections: Collections,
  member: MemberRef,
  role: string,
): Promise<void> {
  const events = [memberEventOf("member.updated", { ...member, role }, collections.eventHub.now())];
  const result = await collections.members.updateOne(
    { _id: member._id },
    { $set: { role }, ...pushEvents(events) },
  );
  if (result.matchedCount === 1) startRelay(collections, events);
  await bumpListings(collections, [member.organizationId]);
}

/** True for the one caller whose delete removed it. */
export async function deleteMemberById(
  collections: Collections,
  member: MemberRef & Pick<MemberDoc, "role">,
): Promise<boolean> {
  const event = memberEventOf("member.removed", member, collections.eventHub.now());
  const removed = await deleteRowsWithEvents(
    collections,
    memberEventSource,
    [{ _id: member._id, event }],
    (ids) => collections.members.deleteMany({ _id: { $in: ids } }).then((result) => result.deletedCount),
  );
  if (removed !== 1) return false;
  await bumpListings(collections, [member.organizationId]);
  return true;
}

export async function deleteOrganizationMembers(
  collections: Collections,
  organizationId: ObjectId,
): Promise<void> {
  await collections.members.deleteMany({ organizationId });
}

/** A removed team is nobody's team any more (member.teamId, docs/decisions/). */
export async function clearMembersTeam(
  collections: Collections,
  organizationId: ObjectId,
  teamId: ObjectId,
): Promise<void> {
  await collections.members.updateMany({ organizationId, teamId }, { $set: { teamId: null } });
  await bumpListings(collections, [organizationId]);
}

/** Every membership of a user (deleting a user must see them all, not one page). */
export function findUserMemberships(collections: Collections, userId: ObjectId): Promise<MemberDoc[]> {
  return collections.members.find({ userId }).toArray();
}

/** Of `organizationIds`, those with a member other than `userId` (one `distinct` for them all). */
export function findOrganizationsWithOtherMembers(
  collections: Collections,
  organizationIds: readonly ObjectId[],
  userId: ObjectId,
): Promise<ObjectId[]> {
  if (organizationIds.length === 0) return Promise.resolve([]);
  return collections.members.distinct("organizationId", {
    organizationId: { $in: [...organizationIds] },
    userId: { $ne: userId },
  });
}

/** Of `organizationIds`, those where a member other than `userId` holds `role`. */
export function findOrganizationsWithOtherRoleHolder(
  collections: Collections,
  organizationIds: readonly ObjectId[],
  userId: ObjectId,
  role: string,
): Promise<ObjectId[]> {
  if (organizationIds.length === 0) return Promise.resolve([]);
  return collections.members.distinct("organizationId", {
    organizationId: { $in: [...organizationIds] },
    userId: { $ne: userId },
    role: { $regex: listItemPattern(role) },
  });
}

/** Member rows whose `field` is one of `values` (an operator's repair of orphans); how many went. */
export function deleteMembersWhere(
  collections: Collections,
  field: "userId" | "organizationId",
  values: readonly unknown[],
): Promise<number> {
  return deleteMembersListed(collections, { [field]: { $in: [...values] } });
}

/** Every member row of the user, in any organization (deleting the user). Returns how many went. */
export function deleteUserMembers(collections: Collections, userId: ObjectId): Promise<number> {
  return deleteMembersListed(collections, { userId });
}

/**
 * A user's member rows that do not hold `role` (their seats are free again). Rows holding it are
 * left for the sole-owner guard: one may have gained the role since the caller last read it.
 */
export async function deleteUserMembersWithoutRole(
  collections: Collections,
  userId: ObjectId,
  role: string,
): Promise<number> {
  const holds = new RegExp(listItemPattern(role));
  return deleteMembersListed(collections, { userId, role: { $not: holds } });
}

/**
 * Rows an operator imports (`tessera import`), unordered: returns the positions a unique index
 * refused. The organizations of the rows written are bumped.
 */
export async function insertMembersInBulk(collections: Collections, docs: MemberDoc[]): Promise<Set<number>> {
  const at = collections.eventHub.now();
  const outboxes = docs.map((doc) => ({ ...doc, _events: [memberEventOf("member.added", doc, at)] }));
  const refused = await insertManyIgnoringDuplicates(collections.members, outboxes);
  const written = outboxes.filter((_, index) => !refused.has(index));
  startRelay(
    collections,
    written.flatMap((doc) => doc._events),
  );
  await bumpListings(collections, organizationsOf(written));
  return refused;
}

/** Each organization of `rows` once. */
function organizationsOf(rows: readonly { organizationId: ObjectId }[]): ObjectId[] {
  return [...new Map(rows.map((row) => [row.organizationId.toHexString(), row.organizationId])).values()];
}

/**
 * Deletes the member rows `filter` matches and bumps their organizations: the rows are read first
 * and deleted by `_id`, so a row that starts to match between the two (a racing add-member) is not
 * deleted unbumped. Returns how many went.
 */
async function deleteMembersListed(collections: Collections, filter: Filter<MemberDoc>): Promise<number> {
  const rows = await collections.members
    .find(filter, { projection: { _id: 1, organizationId: 1, userId: 1, role: 1 } })
    .toArray();
  if (rows.length === 0) return 0;
  const at = collections.eventHub.now();
  const removed = await deleteRowsWithEvents(
    collections,
    memberEventSource,
    rows.map((row) => ({ _id: row._id, event: memberEventOf("member.removed", row, at) })),
    (ids) =>
      collections.members.deleteMany({ ...filter, _id: { $in: ids } }).then((result) => result.deletedCount),
  );
  const organizations = new Map(rows.map((row) => [row.organizationId.toHexString(), row.organizationId]));
  await bumpListings(collections, [...organizations.values()]);
  return removed;
}

/**
 * After a write of the user's shown fields (name, email, image) or the user row's deletion: the
 * organizations whose member lists show the user (its member rows, the `userId` index), one
 * `distinct`. The users store calls it through the context's hand-over (create-auth.ts), since
 * users cannot import this feature.
 */
export async function bumpListingsOfMemberUser(collections: Collections, userId: ObjectId): Promise<void> {
  await runListingBump(async () =>
    bumpListings(collections, await collections.members.distinct("organizationId", { userId })),
  );
}

/** `tessera doctor`'s view of the members (db/stored-rows.ts): reads only, deletes go through deleteOrphanRows. */
export function memberRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.members);
}
