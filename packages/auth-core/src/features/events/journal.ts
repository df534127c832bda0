import type { Collections } from "../../db/collections.ts";
import type { EventDoc } from "../../db/documents.ts";
import { RELAY_COMMENT } from "../../db/event-hub.ts";
import type { EventSource } from "../../db/event-source.ts";
import type { ObjectId } from "../../db/ids.ts";
import {
  findPendingDeletion,
  forgetPendingDeletion,
  listPendingDeletions,
  recordRowsDeletion,
  releaseRowsClaims,
} from "../pending-deletions/index.ts";
import { findPresentIds, storeEvents } from "./store.ts";

/** A row about to be deleted and the one event its deletion writes. */
export interface RowEvent {
  _id: ObjectId;
  event: EventDoc;
}

/**
 * Deletes rows with their events. A deleted document cannot carry its event, so the deletion
 * journal does (features/pending-deletions): the entry with the events first, then `remove` (which
 * answers how many of the ids it deleted), then, off the answer path, the events of the rows gone
 * are stored and the entry forgotten. A crash in between leaves the entry; the repair pass stores
 * the events of the rows that are gone and drops those of the rows still there.
 */
export async function deleteRowsWithEvents(
  collections: Collections,
  source: EventSource,
  rows: readonly RowEvent[],
  remove: (ids: ObjectId[]) => Promise<number>,
): Promise<number> {
  const ids = rows.map((row) => row._id);
  if (rows.length === 0) return 0;
  const events = rows.map((row) => row.event);
  const entry = await recordRowsDeletion(collections, source.name, ids, events, collections.eventHub.now());
  const removed = await remove(ids);
  collections.eventHub.track(
    removed === ids.length
      ? completeRowsDeletion(collections, entry, events, ids)
      : removed === 0
        ? forgetPendingDeletion(collections, entry, RELAY_COMMENT)
        : settleRowsDeletion(collections, source, entry, ids, events),
  );
  return removed;
}

/**
 * Stores a row deletion's events and forgets its entry. `removedIds`: the rows this deletion is
 * known to have removed, whose claims in other entries go first (releaseRowsClaims), so a crash
 * anywhere here leaves at most this entry to tell them.
 */
async function completeRowsDeletion(
  collections: Collections,
  entry: ObjectId,
  events: EventDoc[],
  removedIds: readonly ObjectId[] = [],
) {
  if (removedIds.length > 0) await releaseRowsClaims(collections, removedIds, entry, RELAY_COMMENT);
  await storeEvents(collections, events);
  await forgetPendingDeletion(collections, entry, RELAY_COMMENT);
  collections.eventHub.publish(events);
}

/**
 * Some of the rows were gone already (another deletion took them and tells them): stores the events
 * of the rows that are gone now, then forgets. Only a deletion of several rows gets here.
 */
async function settleRowsDeletion(
  collections: Collections,
  source: EventSource,
  entry: ObjectId,
  ids: readonly ObjectId[],
  events: readonly EventDoc[],
): Promise<void> {
  const present = await findPresentIds(source.collection(collections), ids);
  const gone = events.filter((_, index) => !present.has(ids[index]!.toHexString()));
  await completeRowsDeletion(collections, entry, gone);
}

/**
 * Completes a user's or organization's deletion (features/deletion, features/organization), off the
 * answer path: its entry's events are stored, then the entry is forgotten (a crash in between: the
 * deletion's finisher completes it again). A deletion given up (it lost a race, a hook refused it)
 * forgets its entry without this, and its events with it.
 */
export function completeJournaledDeletion(collections: Collections, entry: ObjectId): void {
  collections.eventHub.track(relayJournaledDeletion(collections, entry));
}

async function relayJournaledDeletion(collections: Collections, entry: ObjectId): Promise<void> {
  const doc = await findPendingDeletion(collections, entry, RELAY_COMMENT);
  const events = doc?._events ?? [];
  await storeEvents(collections, events);
  await forgetPendingDeletion(collections, entry, RELAY_COMMENT);
  collections.eventHub.publish(events);
}

/**
 * The repair pass over row deletions a crash cut (written before `before`: one still in flight is
 * left alone): the events of the rows gone are stored, the others dropped. Answers how many stored.
 */
export async function repairRowsDeletions(
  collections: Collections,
  sources: readonly EventSource[],
  before: Date,
): Promise<number> {
  let stored = 0;
  // A row two cut deletions both journaled is told once, by the older entry (entries come oldest first).
  const told = new Set<string>();
  for (const entry of await listPendingDeletions(collections, "rows")) {
    if (entry.createdAt >= before) continue;
    const source = sources.find((candidate) => candidate.name === entry.source);
    if (!source) continue; // an owner this version does not know: kept for the version that does
    const ids = entry.targetIds ?? [];
    const present = await findPresentIds(source.collection(collections), ids);
    const gone = (entry._events ?? []).filter((_, index) => {
      const key = `${entry.source}:${ids[index]!.toHexString()}`;
      if (present.has(ids[index]!.toHexString()) || told.has(key)) return false;
      told.add(key);
      return true;
    });
    await completeRowsDeletion(collections, entry._id, gone);
    stored += gone.length;
  }
  return stored;
}
