import type { Collection } from "mongodb";
import type { Collections } from "./collections.ts";
import type { EventDoc, EventOutbox } from "./documents.ts";

/** A collection whose documents carry an outbox (the owners' users, sessions, organizations …). */
// biome-ignore lint/suspicious/noExplicitAny: any owner's `_id` type; only `_id` and `_events` are touched
export type OutboxSource = Collection<any>;

/**
 * An owner's collection whose rows carry events (docs/architecture.md, "Events written with the
 * change"). Each owner's store declares its own (it alone names the collection); createAuth lists
 * them (event-sources.ts) for the repair pass.
 */
export interface EventSource {
  name: string;
  collection(collections: Collections): OutboxSource;
}

/**
 * The update part that puts `events` into the changed document's outbox (nothing for none). Here,
 * in db/, so that the owners of shared tables (db/accounts.ts) use the one that features use
 * (features/events re-exports it).
 */
export function pushEvents(events: readonly EventDoc[]): { $push?: { _events: { $each: EventDoc[] } } } {
  return events.length === 0 ? {} : { $push: { _events: { $each: [...events] } } };
}

/**
 * A document written with findOneAndUpdate, without its outbox (FerretDB v1 takes no projection on
 * findAndModify): it is never answered, hooked or exported.
 */
export function withoutOutbox<T extends EventOutbox>(doc: T | null): T | null {
  if (doc && "_events" in doc) delete doc._events;
  return doc;
}

/** A read's projection leaving the outbox out: it is never answered, hooked or exported. */
export const WITHOUT_OUTBOX = { _events: 0 } as const;
