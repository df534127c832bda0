import type { Collections } from "../../db/collections.ts";
import { insertManyIgnoringDuplicates } from "../../db/connect.ts";
import type { UserDoc, UserTimelineDoc } from "../../db/documents.ts";
import { findPage } from "../../db/find-page.ts";
import { TIMELINE_RANGE, timelineIdOf } from "../../db/ids.ts";
import { upsertRetryingRace } from "../../db/upsert.ts";

/**
 * The owner of `userTimeline`: one entry per user, `_id` from the sign-up time and the user id
 * (db/ids.ts timelineIdOf), what admin list-users pages through (docs/scale.md). It knows nothing of
 * `users`: the users store (store.ts) writes an entry with each user and removes it with the user;
 * repairs.ts checks the entries against the users.
 */

/** Written before the user: a cut leaves an entry without a user, which readers skip. */
export async function addToTimeline(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "createdAt">,
): Promise<void> {
  await upsertRetryingRace(() =>
    collections.userTimeline.updateOne(
      { _id: { $eq: timelineIdOf(user.createdAt, user._id) } },
      { $setOnInsert: { userId: user._id } },
      { upsert: true },
    ),
  );
}

/**
 * The entries of `users` (store.ts insertUsersInBulk, repairs.ts enterEveryUser); those present stay.
 * Answers how many it wrote.
 */
export async function addManyToTimeline(
  collections: Collections,
  users: readonly Pick<UserDoc, "_id" | "createdAt">[],
): Promise<number> {
  const refused = await insertManyIgnoringDuplicates(
    collections.userTimeline,
    users.map((user) => ({ _id: timelineIdOf(user.createdAt, user._id), userId: user._id })),
  );
  return users.length - refused.size;
}

export async function removeFromTimeline(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "createdAt">,
): Promise<void> {
  await collections.userTimeline.deleteOne({ _id: { $eq: timelineIdOf(user.createdAt, user._id) } });
}

/** Removes the entries of `ids` (by `_id`: an index read, not a scan); answers how many went. */
export async function removeTimelineEntries(
  collections: Collections,
  ids: readonly string[],
): Promise<number> {
  return (await collections.userTimeline.deleteMany({ _id: { $in: [...ids] } })).deletedCount;
}

/** The number of entries, from the collection's metadata (one command, no scan). */
export function countTimelineEntries(collections: Collections): Promise<number> {
  return collections.userTimeline.estimatedDocumentCount();
}

/**
 * One page of the timeline in `direction`: the entries' `_id`s only (each ends with its user's id,
 * db/ids.ts userIdOfTimelineId). findPage (db/find-page.ts): one reply decoded once.
 */
export async function findTimelineEntryIds(
  collections: Collections,
  direction: 1 | -1,
  offset: number,
  limit: number,
): Promise<string[]> {
  const page = await findPage(collections.userTimeline, {
    filter: { _id: TIMELINE_RANGE },
    sort: { _id: direction },
    skip: offset,
    limit,
    projection: { _id: 1 },
  });
  return page.map((entry) => entry._id);
}

/** The entries whose `_id` is below `before` (settled ones), streamed in `_id` order. */
export function readEntriesBefore(collections: Collections, before: string): AsyncIterable<UserTimelineDoc> {
  return collections.userTimeline.find({ _id: { $gte: "t", $lt: before } });
}

/** Every entry's `_id`, streamed. */
export function readEntryIds(collections: Collections): AsyncIterable<Pick<UserTimelineDoc, "_id">> {
  return collections.userTimeline.find({}, { projection: { _id: 1 } });
}
