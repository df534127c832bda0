import type { Document, Filter } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateInsertError } from "../../db/connect.ts";
import type { EventDoc, EventOutbox } from "../../db/documents.ts";
import { RELAY_COMMENT } from "../../db/event-hub.ts";
import { type OutboxSource, withoutOutbox } from "../../db/event-source.ts";
import { eventIdFloor } from "./ids.ts";

/**
 * The events after `afterId` (null: from the first), ascending by `_id`, i.e. by time: an `_id`
 * range, which every backend answers from its `_id` index (docs/scale.md).
 */
export function readEventsAfter(collections: Collections, afterId: string | null, limit: number) {
  const filter: Filter<EventDoc> = afterId === null ? {} : { _id: { $gt: afterId } };
  return collections.events.find(filter).sort({ _id: 1 }).limit(limit).toArray();
}

/**
 * Stores events written with their change into `events`, by their stable `_id` (a relay repeated
 * after a crash, or racing another, stores each once), then tells the instance's listeners. The
 * changed document keeps its outbox: a second write to it here, beside the request's own next
 * writes, could undo one of them on FerretDB v1, whose updates of one document do not see each
 * other (docs/scale.md); the repair pass empties outboxes once they hold more than OUTBOX_KEEP
 * (relayStrandedOutboxes).
 * @internal Exported for its unit test (store.test.ts).
 */
export async function relayEvents(collections: Collections, events: readonly EventDoc[]): Promise<void> {
  if (events.length === 0) return;
  await storeEvents(collections, events);
  collections.eventHub.publish(events);
}

/**
 * What a write does once its events are written with it: the instance's listeners (webhooks) are told
 * at once — the events are stored, in the changed document's outbox — and the insert into `events`
 * is gathered with other requests' (db/event-hub.ts batch), off the request's answer path.
 */
export function startRelay(collections: Collections, events: readonly EventDoc[]): void {
  if (events.length === 0) return;
  collections.eventHub.publish(events);
  collections.eventHub.batch(events, (batch) => storeEvents(collections, batch));
}

/**
 * Settled events a document's outbox keeps before the repair pass empties it. Emptying is a write
 * of the document, which cost a sign-up more database time than the rest of its events together
 * (docs/scale.md "Events on a sign-up"); kept, a few events are a few hundred bytes each. A document
 * changed more often is emptied once every OUTBOX_KEEP events.
 * @internal Exported for its tests (store.test.ts, repair.test.ts).
 */
export const OUTBOX_KEEP = 4;

/**
 * An outbox longer than this is emptied by the write that finds it so (outboxWrittenBy): a document
 * changed several times a second (50 users renamed 200 times a second) otherwise grows by an event
 * each change until the repair pass, and every later read and write of it costs more.
 */
const OUTBOX_LONG = 2 * OUTBOX_KEEP;

/**
 * The document a findOneAndUpdate answered, without its outbox (db/event-source.ts withoutOutbox).
 * When the outbox is long, its events already stored in `events` are pulled from it beside the
 * answer (one read of `events`, one `$pullAll` of exactly those): events not stored yet — this
 * write's, gathered for their insert, or another instance's — stay for their relay or the repair
 * pass. Updates are atomic per document on both databases (docs/architecture.md), so the pull never
 * undoes another write.
 */
export function outboxWrittenBy<T extends EventOutbox & { _id: unknown }>(
  collections: Collections,
  source: OutboxSource,
  doc: T | null,
): T | null {
  const outbox = doc?._events ?? [];
  if (doc && outbox.length > OUTBOX_LONG)
    collections.eventHub.track(pullStoredEvents(collections, source, doc._id, outbox));
  return withoutOutbox(doc);
}

async function pullStoredEvents(
  collections: Collections,
  source: OutboxSource,
  id: unknown,
  outbox: readonly EventDoc[],
): Promise<void> {
  const stored = await findPresentIds(
    collections.events,
    outbox.map((event) => event._id),
  );
  const settled = outbox.filter((event) => stored.has(event._id));
  if (settled.length > 0)
    await source.updateOne(
      { _id: id },
      { $pullAll: { _events: settled } as Document },
      { comment: RELAY_COMMENT },
    );
}

/** Inserts each event unless a row with its `_id` is already stored. */
export async function storeEvents(collections: Collections, events: readonly EventDoc[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await collections.events.insertMany(
      events.map((event) => ({ ...event })),
      { ordered: false, comment: RELAY_COMMENT },
    );
  } catch (error) {
    if (!isDuplicateInsertError(error)) throw error;
  }
}

/** Outboxes the repair pass checks with one read of `events` (a `$in` of their event ids). */
const REPAIR_BATCH = 200;

/** When the repair pass settles outboxes (relayStrandedOutboxes). */
export interface OutboxRepair {
  /** Events written before it are settled: the writer is done with the document. */
  settledBefore: Date;
  /** Events written before it are past retention: never stored again, always emptied (default: none). */
  expiredBefore?: Date;
}

/**
 * The repair pass for one owner's collection (a scan: the embedded database answers no other field
 * from an index). Every outbox's events not yet in `events` — a crash or an outage came between a
 * write and its relay — are stored and told to the listeners, unless past retention. A document's
 * settled events are pulled from it once it holds more than OUTBOX_KEEP events or one past retention.
 * Answers how many events were missing. Outboxes are settled REPAIR_BATCH at a time, one read of
 * `events` and at most one write for each batch: a server starting after a crash finds every
 * document written in the last minute still holding its events, and a read per document made its
 * repair cost a command per recent write (the 200-kill crash test).
 */
export async function relayStrandedOutboxes(
  collections: Collections,
  source: OutboxSource,
  repair: OutboxRepair,
): Promise<number> {
  let missing = 0;
  let batch: (EventOutbox & { _id: unknown })[] = [];
  const settle = async () => {
    missing += await relayStrandedBatch(collections, source, batch, repair);
    batch = [];
  };
  const outboxes = source.find({ "_events.0": { $exists: true } }, { projection: { _events: 1 } });
  for await (const doc of outboxes as AsyncIterable<EventOutbox & { _id: unknown }>) {
    batch.push(doc);
    if (batch.length === REPAIR_BATCH) await settle();
  }
  if (batch.length > 0) await settle();
  return missing;
}

async function relayStrandedBatch(
  collections: Collections,
  source: OutboxSource,
  docs: readonly (EventOutbox & { _id: unknown })[],
  { settledBefore, expiredBefore = new Date(0) }: OutboxRepair,
): Promise<number> {
  const expired = (event: EventDoc) => event.createdAt < expiredBefore;
  const events = docs.flatMap((doc) => (doc._events ?? []).filter((event) => !expired(event)));
  const stored = await findPresentIds(
    collections.events,
    events.map((event) => event._id),
  );
  const absent = events.filter((event) => !stored.has(event._id));
  await relayEvents(collections, absent);
  // One write for the batch: each document to empty loses its settled events (an event's _id is in
  // one outbox only); what a writer pushed since the read stays.
  // $pullAll of the exact documents: FerretDB v1 ignores a $pull condition such as { _id: { $in } }.
  const toEmpty = docs.filter((doc) => {
    const outbox = doc._events ?? [];
    return outbox.length > OUTBOX_KEEP || outbox.some(expired);
  });
  const settled = toEmpty.flatMap((doc) =>
    (doc._events ?? []).filter((event) => event.createdAt < settledBefore),
  );
  if (settled.length > 0)
    await source.updateMany(
      { _id: { $in: toEmpty.map((doc) => doc._id) } },
      { $pullAll: { _events: settled } as Document },
      { comment: RELAY_COMMENT },
    );
  return absent.length;
}

/** The hex ids of `ids` that still have a row in `source` (one `$in` read by `_id`). */
export async function findPresentIds(source: OutboxSource, ids: readonly unknown[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await source
    .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 }, comment: RELAY_COMMENT })
    .toArray();
  return new Set(
    rows.map((row) => String((row._id as { toHexString?: () => string }).toHexString?.() ?? row._id)),
  );
}

/**
 * Events written before this are past `events.retentionDays`: the cleanup deletes them (with their
 * webhook deliveries) and the repair pass never stores them again.
 */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}

/**
 * Retention (`events.retentionDays`, run by `auth.cleanup()`): the events that happened before
 * `before` — an `_id` range, since ids begin with their time. Answers how many went.
 */
export async function deleteExpiredEvents(collections: Collections, before: Date): Promise<number> {
  const result = await collections.events.deleteMany({ _id: { $lt: eventIdFloor(before) } });
  return result.deletedCount;
}

/** What a listing asks for (contracts/events-listing.ts). */
export interface EventQuery {
  type?: string;
  organizationId?: string;
  userId?: string;
  /** Only events at or after this time. */
  since?: Date;
  /** Only events older than this id (the last one of the page before). */
  before?: string;
  limit: number;
}

/**
 * One page of events, newest first: an `_id` range (since, before) with the type and organization
 * compared on the rows it reads (MongoDB has the organizationId_id index; docs/scale.md).
 */
export function findEventsPage(collections: Collections, query: EventQuery): Promise<EventDoc[]> {
  const range: Record<string, string> = {};
  if (query.since) range.$gte = eventIdFloor(query.since);
  if (query.before) range.$lt = query.before;
  const filter: Filter<EventDoc> = {
    ...(Object.keys(range).length > 0 ? { _id: range } : {}),
    ...(query.type ? { type: { $eq: query.type } } : {}),
    ...(query.organizationId ? { organizationId: { $eq: query.organizationId } } : {}),
    ...(query.userId ? { userId: { $eq: query.userId } } : {}),
  };
  return collections.events.find(filter).sort({ _id: -1 }).limit(query.limit).toArray();
}
