import type { Collections } from "../../db/collections.ts";
import type { UserDoc } from "../../db/documents.ts";
import { type ObjectId, timelineIdOf, userIdOfTimelineId } from "../../db/ids.ts";
import { prefixRange } from "../../db/prefix.ts";
import { findClaimedUserIds } from "./claims-store.ts";
import { countAllUsers, findUsersByIds } from "./store.ts";
import { countTimelineEntries, findTimelineEntryIds } from "./timeline-store.ts";

/**
 * Admin list-users' two indexed reads of all users (docs/scale.md), composed from the users store's
 * reads of the users, their timeline and their address claims: a page by creation time, and the
 * users under an address prefix. Each answers null when it cannot answer exactly; the caller then
 * asks the users collection itself.
 */

export interface UsersPage {
  users: UserDoc[];
  total: number;
}

/**
 * The page of all users by creation time (the default order), read from the users' timeline: one
 * `_id` range in order, the users by `_id`, two counts — whatever the number of users. Null when
 * the timeline cannot answer exactly (its count is not the users' count, or an entry read has no
 * user, or not this one).
 */
export async function findUsersPageByTimeline(
  collections: Collections,
  direction: 1 | -1,
  offset: number,
  limit: number,
): Promise<UsersPage | null> {
  const [entryIds, total, entries] = await Promise.all([
    findTimelineEntryIds(collections, direction, offset, limit),
    countAllUsers(collections),
    countTimelineEntries(collections),
  ]);
  if (total !== entries) return null;
  if (entryIds.length === 0) return { users: [], total };
  const userIds: ObjectId[] = [];
  for (const entryId of entryIds) {
    const userId = userIdOfTimelineId(entryId);
    if (userId === null) return null;
    userIds.push(userId);
  }
  const found = await findUsersByIds(collections, userIds);
  const byId = new Map(found.map((user) => [user._id.toHexString(), user]));
  const users: UserDoc[] = [];
  for (const [index, entryId] of entryIds.entries()) {
    const user = byId.get(userIds[index]!.toHexString());
    if (!user || !(user.createdAt instanceof Date) || timelineIdOf(user.createdAt, user._id) !== entryId)
      return null;
    users.push(user);
  }
  return { users, total };
}

/**
 * More addresses than this under one prefix: the search reads the users collection instead.
 * @internal Exported for list-users-keyed.test.ts.
 */
export const PREFIX_SEARCH_LIMIT = 5000;

/**
 * The users whose address starts with `prefix` (lower case, as addresses are stored), found through
 * their address claims, sorted by creation time in `direction` then `_id`, and paged. Null when the
 * prefix holds more than PREFIX_SEARCH_LIMIT claims, or has characters that leave the range.
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
  const claimed = await findClaimedUserIds(collections, range, PREFIX_SEARCH_LIMIT + 1);
  if (claimed.length > PREFIX_SEARCH_LIMIT) return null;
  const found: UserDoc[] = [];
  // In reads of at most 1,000 ids: a longer `$in` is not answered from FerretDB's index.
  for (let start = 0; start < claimed.length; start += 1000)
    found.push(...(await findUsersByIds(collections, claimed.slice(start, start + 1000))));
  // A claim whose user now has another address is stale (store.ts takeEmailClaim): not a match.
  const matching = found
    .filter((user) => user.email.startsWith(prefix))
    .sort((a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a._id, b._id)));
  return { users: matching.slice(offset, offset + limit), total: matching.length };
}

function compareIds(a: ObjectId, b: ObjectId): number {
  const [x, y] = [a.toHexString(), b.toHexString()];
  return x < y ? -1 : x > y ? 1 : 0;
}
