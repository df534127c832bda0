import { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { EventDoc, PendingDeletionDoc, UserDoc } from "../../db/documents.ts";
import { type StoredRows, storedRowsOf } from "../../db/stored-rows.ts";

/**
 * The journal of deletions under way. FerretDB v1 has no transactions: a deletion that spans
 * collections writes its entry first and removes it last, so a crash in between leaves the entry,
 * and `auth.cleanup()` reads the whole (small) collection and finishes each one. Every entry has an
 * `_id` of its own: concurrent deletions of the same row each keep theirs, and the loser removing
 * its entry never removes the winner's.
 */
export async function recordPendingDeletion(
  collections: Collections,
  kind: PendingDeletionDoc["kind"],
  targetId: ObjectId,
  now: Date,
  user: UserDoc | null = null,
  events: EventDoc[] = [],
): Promise<ObjectId> {
  const doc: PendingDeletionDoc = { _id: new ObjectId(), kind, targetId, user, createdAt: now };
  if (events.length > 0) doc._events = events;
  await collections.pendingDeletions.insertOne(doc);
  return doc._id;
}

/**
 * The entry of rows an owner deletes with their events (features/events deleteRowsWithEvents):
 * `events[i]` is the event of row `targetIds[i]` of the owner's collection `source`.
 */
export async function recordRowsDeletion(
  collections: Collections,
  source: string,
  targetIds: ObjectId[],
  events: EventDoc[],
  now: Date,
): Promise<ObjectId> {
  const doc: PendingDeletionDoc = {
    _id: new ObjectId(),
    kind: "rows",
    targetId: targetIds[0]!,
    user: null,
    createdAt: now,
    _events: events,
    source,
    targetIds,
  };
  await collections.pendingDeletions.insertOne(doc);
  return doc._id;
}

export function findPendingDeletion(
  collections: Collections,
  id: ObjectId,
  comment?: string,
): Promise<PendingDeletionDoc | null> {
  return collections.pendingDeletions.findOne({ _id: id }, comment === undefined ? {} : { comment });
}

/** `comment`: the command's comment (the event relay's, db/event-hub.ts RELAY_COMMENT). */
export async function forgetPendingDeletion(
  collections: Collections,
  id: ObjectId,
  comment?: string,
): Promise<void> {
  await collections.pendingDeletions.deleteOne({ _id: id }, comment === undefined ? {} : { comment });
}

/**
 * Takes `ids` and their events out of the other row deletions that journaled them: those rows are
 * gone by `except`'s deletion, which tells them, so an entry written earlier for the same rows (its
 * request cut by a crash, then retried) must not tell them again. An entry left with no row goes.
 * One read of the (small) collection; the entries it finds are rare.
 */
export async function releaseRowsClaims(
  collections: Collections,
  ids: readonly ObjectId[],
  except: ObjectId,
  comment?: string,
): Promise<void> {
  const options = comment === undefined ? {} : { comment };
  const others = await collections.pendingDeletions
    .find({ kind: "rows", targetIds: { $in: [...ids] }, _id: { $ne: except } }, options)
    .toArray();
  const taken = new Set(ids.map((id) => id.toHexString()));
  for (const entry of others) {
    const targetIds = entry.targetIds ?? [];
    const kept = targetIds.flatMap((id, index) =>
      taken.has(id.toHexString()) ? [] : [{ id, event: entry._events?.[index] }],
    );
    if (kept.length === 0) {
      await collections.pendingDeletions.deleteOne({ _id: entry._id }, options);
      continue;
    }
    await collections.pendingDeletions.updateOne(
      { _id: entry._id },
      {
        $set: {
          targetId: kept[0]!.id,
          targetIds: kept.map((row) => row.id),
          _events: kept.flatMap((row) => (row.event ? [row.event] : [])),
        },
      },
      options,
    );
  }
}

/** Every entry, oldest first; the collection holds only deletions interrupted or in flight. */
export function listPendingDeletions(collections: Collections, kind: PendingDeletionDoc["kind"]) {
  return collections.pendingDeletions.find({ kind }).sort({ createdAt: 1 }).toArray();
}

/** `tessera doctor`'s view of the deletion journal (db/stored-rows.ts). */
export function pendingDeletionRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.pendingDeletions);
}
