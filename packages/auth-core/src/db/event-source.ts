import type { Collection } from "mongodb";
import type { Collections } from "./collections.ts";

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
