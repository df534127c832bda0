import type { Collection, Filter } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { EventDoc, EventOutbox } from "../../db/documents.ts";

/** A collection whose documents carry an outbox (the owners' users, sessions, organizations …). */
// biome-ignore lint/suspicious/noExplicitAny: any owner's `_id` type; only `_id` and `_events` are touched
export type OutboxSource = Collection<any>;

/**
 * The events after `afterId` (null: from the first), ascending by `_id`, i.e. by time: an `_id`
 * range, which every backend answers from its `_id` index (docs/scale.md).
 */
export function readEventsAfter(collections: Collections, afterId: string | null, limit: number) {
  const filter: Filter<EventDoc> = afterId === null ? {} : { _id: { $gt: afterId } };
  return collections.events.find(filter).sort({ _id: 1 }).limit(limit).toArray();
}

/**
 * Copies an outbox's events into `events` and then pulls them from the document. Each is written by
 * its stable `_id`, so a relay repeated after a crash (or racing another) stores it once. Pulled
 * only after they are stored: a crash in between leaves them to the repair pass, never loses them.
 */
export async function relayOutbox(
  collections: Collections,
  source: OutboxSource,
  documentId: unknown,
  events: readonly EventDoc[],
): Promise<void> {
  if (events.length === 0) return;
  await storeEvents(collections, events);
  // $pullAll of the exact documents: FerretDB v1 ignores a $pull condition such as { _id: { $in } }.
  await source.updateOne({ _id: documentId }, { $pullAll: { _events: events } });
  collections.eventHub.publish(events);
}

/** Starts relayOutbox off the request's answer path (db/event-hub.ts track). */
export function startRelay(
  collections: Collections,
  source: OutboxSource,
  documentId: unknown,
  events: readonly EventDoc[],
): void {
  collections.eventHub.track(relayOutbox(collections, source, documentId, events));
}

/** Inserts each event unless a row with its `_id` is already stored. */
export async function storeEvents(collections: Collections, events: readonly EventDoc[]): Promise<void> {
  try {
    await collections.events.insertMany(
      events.map((event) => ({ ...event })),
      { ordered: false },
    );
  } catch (error) {
    if (!isEveryFailureDuplicate(error)) throw error;
  }
}

/**
 * The repair pass for one owner's collection: every document still holding events (a crash or an
 * outage between a write and its relay) has them relayed now. Returns how many were relayed.
 */
export async function relayStrandedOutboxes(collections: Collections, source: OutboxSource): Promise<number> {
  let relayed = 0;
  const stranded = source.find({ "_events.0": { $exists: true } }, { projection: { _events: 1 } });
  for await (const doc of stranded as AsyncIterable<EventOutbox & { _id: unknown }>) {
    const events = doc._events ?? [];
    await relayOutbox(collections, source, doc._id, events);
    relayed += events.length;
  }
  return relayed;
}

function isEveryFailureDuplicate(error: unknown): boolean {
  if (isDuplicateKeyError(error)) return true;
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.length > 0 && list.every((entry) => (entry as { code?: number }).code === 11000);
}
