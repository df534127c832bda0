import type { Filter } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { AuditEventDoc, SessionDoc, UserDoc } from "../../db/documents.ts";
import { findPage } from "../../db/find-page.ts";
import { type ObjectId, TIMELINE_RANGE, timelineIdOf, userIdOfTimelineId } from "../../db/ids.ts";
import { prefixRange } from "../../db/prefix.ts";
import type { UserPage } from "./list-users-query.ts";

/** The admin area's own queries; user and session writes go through users/ and session/. */
export function findUsersPage(
  collections: Collections,
  filter: Filter<UserDoc>,
  page: UserPage,
): Promise<UserDoc[]> {
  return collections.users.find(filter).sort(page.sort).skip(page.offset).limit(page.limit).toArray();
}

export function countUsers(collections: Collections, filter: Filter<UserDoc>): Promise<number> {
  return collections.users.countDocuments(filter);
}

export interface UsersPage {
  users: UserDoc[];
  total: number;
}

/**
 * The page of all users by creation time (the default order), read from the users' timeline
 * (docs/scale.md): one `_id` range in order, the users by `_id`, two counts — whatever the number
 * of users. Null when the timeline cannot answer exactly (its count is not the users' count, or an
 * entry read has no user, or not this one): the caller then asks the users collection itself.
 */
export async function findUsersPageByTimeline(
  collections: Collections,
  direction: 1 | -1,
  offset: number,
  limit: number,
): Promise<UsersPage | null> {
  // findPage (db/find-page.ts): each page is one reply decoded once, not a cursor's per-document views.
  // Only the entries' `_id`s are read: each ends with its user's id (db/ids.ts userIdOfTimelineId).
  const [entries, total, entered] = await Promise.all([
    findPage(collections.userTimeline, {
      filter: { _id: TIMELINE_RANGE },
      sort: { _id: direction },
      skip: offset,
      limit,
      projection: { _id: 1 },
    }),
    collections.users.estimatedDocumentCount(),
    collections.userTimeline.estimatedDocumentCount(),
  ]);
  if (total !== entered) return null;
  if (entries.length === 0) return { users: [], total };
  const userIds: ObjectId[] = [];
  for (const entry of entries) {
    const userId = userIdOfTimelineId(entry._id);
    if (userId === null) return null;
    userIds.push(userId);
  }
  const found = await findPage(collections.users, {
    filter: { _id: { $in: userIds } },
    limit: entries.length,
  });
  const byId = new Map(found.map((user) => [user._id.toHexString(), user]));
  const users: UserDoc[] = [];
  for (const [index, entry] of entries.entries()) {
    const user = byId.get(userIds[index]!.toHexString());
    if (!user || !(user.createdAt instanceof Date) || timelineIdOf(user.createdAt, user._id) !== entry._id)
      return null;
    users.push(user);
  }
  return { users, total };
}

/** More addresses than this under one prefix: the search reads the users collection instead. */
export const PREFIX_SEARCH_LIMIT = 5000;

/**
 * The users whose address starts with `prefix` (lower case, as addresses are stored), found through
 * their address claims (`_id` = the address, so the prefix is one `_id` range), sorted by creation
 * time in `direction` then `_id`, and paged. Null when the prefix holds more than
 * PREFIX_SEARCH_LIMIT claims, or has characters that leave the range.
 */
export async function findUsersByEmailPrefix(
  collections: Collections,
  prefix: string,
  direction: 1 | -1,
  offset: number,
  limit: number,
): Promise<UsersPage | null> {
  const range = prefixRange(prefix);
  if (!range) return null;
  const claims = await collections.emailClaims
    .find({ _id: range }, { projection: { userId: 1 } })
    .limit(PREFIX_SEARCH_LIMIT + 1)
    .toArray();
  if (claims.length > PREFIX_SEARCH_LIMIT) return null;
  const found: UserDoc[] = [];
  // In reads of at most 1,000 ids: a longer `$in` is not answered from FerretDB's index.
  for (let start = 0; start < claims.length; start += 1000) {
    const ids = claims.slice(start, start + 1000).map((claim) => claim.userId);
    found.push(...(await collections.users.find({ _id: { $in: ids } }).toArray()));
  }
  // A claim whose user now has another address is stale (users/store.ts claimEmail): not a match.
  const matching = found
    .filter((user) => user.email.startsWith(prefix))
    .sort((a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a._id, b._id)));
  return { users: matching.slice(offset, offset + limit), total: matching.length };
}

function compareIds(a: ObjectId, b: ObjectId): number {
  const [x, y] = [a.toHexString(), b.toHexString()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The impersonation sessions an admin started (revoked when the admin loses the right). */
export async function deleteImpersonationSessionsBy(
  collections: Collections,
  adminId: ObjectId,
): Promise<number> {
  const result = await collections.sessions.deleteMany({ impersonatedBy: adminId });
  return result.deletedCount;
}

export function findSessionById(collections: Collections, id: ObjectId): Promise<SessionDoc | null> {
  return collections.sessions.findOne({ _id: id });
}

/** Deletes one session by id; the delete count says whether this call removed it. */
export async function deleteSessionById(collections: Collections, id: ObjectId): Promise<boolean> {
  const result = await collections.sessions.deleteOne({ _id: id });
  return result.deletedCount === 1;
}

export async function insertAuditEvent(collections: Collections, doc: AuditEventDoc): Promise<void> {
  await collections.auditEvents.insertOne(doc);
}

export interface AuditFilter {
  actorId?: ObjectId;
  subjectId?: ObjectId;
  action?: string;
}

export function findAuditEvents(
  collections: Collections,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<AuditEventDoc[]> {
  return collections.auditEvents
    .find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .skip(offset)
    .limit(limit)
    .toArray();
}

export function countAuditEvents(collections: Collections, filter: AuditFilter): Promise<number> {
  return collections.auditEvents.countDocuments(filter);
}
