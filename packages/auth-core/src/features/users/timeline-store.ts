import type { Collections } from "../../db/collections.ts";
import type { UserDoc, UserTimelineDoc } from "../../db/documents.ts";
import { findPage } from "../../db/find-page.ts";
import type { ObjectId } from "../../db/ids.ts";
import { TIMELINE_RANGE, timelineIdOf } from "../../db/ids.ts";
import { bumpUsersListing } from "../../db/listing-version.ts";
import { enterEveryUser } from "../../db/migrations/0010-user-timeline.ts";
import { NOBODY } from "./claims-store.ts";

/**
 * The users' timeline (`userTimeline`, one entry per user, `_id` from the sign-up time and the
 * user id: db/ids.ts timelineIdOf), what admin list-users pages through (docs/scale.md). Owned by
 * the users store files with `users` and `emailClaims`: the users store writes an entry with each
 * user and removes it with the user; this file holds the entries' own reads and the one repair.
 */

/** Written before the user: a cut leaves an entry without a user, which readers skip. */
export async function addToTimeline(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "createdAt">,
): Promise<void> {
  await collections.userTimeline.updateOne(
    { _id: { $eq: timelineIdOf(user.createdAt, user._id) } },
    { $setOnInsert: { userId: user._id } },
    { upsert: true },
  );
}

export async function removeFromTimeline(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "createdAt">,
): Promise<void> {
  await collections.userTimeline.deleteOne({ _id: { $eq: timelineIdOf(user.createdAt, user._id) } });
}

/** A timeline entry younger than this may be a sign-up whose user insert is still on its way. */
const TIMELINE_SETTLE_MS = 60_000;

const BATCH = 1000;

/**
 * Cleanup (features/cleanup.ts): when the timeline and the users differ in number, repairUserTimeline.
 * Answers how many entries it wrote or removed; nothing to do costs two counts.
 */
export async function reconcileUserTimeline(collections: Collections, now: Date): Promise<number> {
  const [users, entries] = await Promise.all([
    collections.users.estimatedDocumentCount(),
    collections.userTimeline.estimatedDocumentCount(),
  ]);
  if (users === entries) return 0;
  const { entered, removed } = await repairUserTimeline(collections, now);
  return entered + removed;
}

/**
 * The timeline's one repair (cleanup, `tessera doctor --fix`): enters every user that has no entry
 * and removes the settled entries whose user is gone (a cut between the entry and the user insert,
 * or between the user delete and the entry's). Then the users' listing is bumped: which reads answer
 * list-users changed (the timeline's or the users collection's own).
 */
export async function repairUserTimeline(
  collections: Collections,
  now: Date,
): Promise<{ entered: number; removed: number }> {
  const entered = await enterEveryUser(collections);
  let removed = 0;
  let batch: UserTimelineDoc[] = [];
  const removeOrphans = async () => {
    const entries = batch;
    batch = [];
    const present = await findPresentUserIds(
      collections,
      entries.map((entry) => entry.userId),
    );
    // By the entries' own `_id`s (all settled: read below `settled`): an index read, not a scan.
    const orphans = entries
      .filter((entry) => !present.has(entry.userId.toHexString()))
      .map((entry) => entry._id);
    if (orphans.length === 0) return;
    removed += (await collections.userTimeline.deleteMany({ _id: { $in: orphans } })).deletedCount;
  };
  for await (const entry of collections.userTimeline.find({ _id: { $gte: "t", $lt: settledBefore(now) } })) {
    batch.push(entry);
    if (batch.length >= BATCH) await removeOrphans();
  }
  if (batch.length > 0) await removeOrphans();
  if (entered + removed > 0) await bumpUsersListing(collections);
  return { entered, removed };
}

/** Timeline ids below this are settled: no sign-up between its two writes can still own them. */
function settledBefore(now: Date): string {
  return timelineIdOf(new Date(now.getTime() - TIMELINE_SETTLE_MS), NOBODY);
}

async function findPresentUserIds(collections: Collections, ids: readonly ObjectId[]): Promise<Set<string>> {
  const found = await collections.users
    .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
    .toArray();
  return new Set(found.map((user) => user._id.toHexString()));
}

/**
 * What repairUserTimeline would change, without writing (`tessera doctor`): the users without an
 * entry, and the settled entries whose user is gone.
 */
export async function findTimelineGaps(
  collections: Collections,
  now: Date,
): Promise<{ usersWithoutEntry: ObjectId[]; entriesWithoutUser: string[] }> {
  const expected = new Map<string, ObjectId>();
  for await (const user of collections.users.find({}, { projection: { _id: 1, createdAt: 1 } }))
    if (user.createdAt instanceof Date) expected.set(timelineIdOf(user.createdAt, user._id), user._id);
  const settled = settledBefore(now);
  const entriesWithoutUser: string[] = [];
  for await (const entry of collections.userTimeline.find({}, { projection: { _id: 1 } })) {
    if (expected.delete(entry._id)) continue;
    if (entry._id < settled) entriesWithoutUser.push(entry._id);
  }
  return { usersWithoutEntry: [...expected.values()], entriesWithoutUser };
}

/**
 * One page of the users' timeline (docs/scale.md) in `direction`: the entries' `_id`s only (each
 * ends with its user's id, db/ids.ts userIdOfTimelineId), with the users' and the entries' counts.
 */
export async function findTimelinePage(
  collections: Collections,
  direction: 1 | -1,
  offset: number,
  limit: number,
): Promise<{ entryIds: string[]; users: number; entries: number }> {
  // findPage (db/find-page.ts): each page is one reply decoded once, not a cursor's per-document views.
  const [page, users, entries] = await Promise.all([
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
  return { entryIds: page.map((entry) => entry._id), users, entries };
}
