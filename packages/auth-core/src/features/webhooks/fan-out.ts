import type { Collections } from "../../db/collections.ts";
import type { EventDoc, WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";
import { eventIdFloor, readEventsAfter } from "../events/index.ts";
import { deliveryIdOf, endpointWantsEvent, newDeliveryOf } from "./rules.ts";
import {
  findPresentDeliveryIds,
  insertDeliveries,
  listEnabledEndpoints,
  moveFanOutCursor,
  readFanOutCursor,
} from "./store.ts";

/**
 * Fan-out: an event becomes one delivery row per enabled endpoint that wants it (docs/decisions/0020-webhooks.md
 * "Webhooks"). Two paths lead here and both may run on every instance, so every row is keyed by
 * event and endpoint: (1) the events this process stores, handed over by the event hub at once (the
 * low-latency path, repaired events included): their deliveries are planned here and claimed,
 * attempted and only then stored, with their first attempt (worker.ts); (2) a sweep of the `events` collection
 * behind a shared cursor, for events stored by processes that run no delivery worker or that died
 * before handing them over. The sweep reads only events older than SETTLE_MS, so an event stored a
 * moment after a later id (relays run concurrently) is not stepped over, and one the hub's path is
 * still attempting is rarely met (then both hold the same `_id`, and the claim decides who sends).
 * The sweep reads which of its rows exist (one `_id` read) and inserts the others in one command.
 */

/** How long after its id's time an event must be stored to be fanned out by the sweep. */
const SETTLE_MS = 5_000;
const SWEEP_BATCH = 200;

/** A delivery planned from this instance's own event, not stored yet, with its endpoint as read for it. */
export interface FreshDelivery {
  delivery: WebhookDeliveryDoc;
  endpoint: WebhookEndpointDoc;
}

export interface FanOut {
  /** The deliveries of these events (the hub's path), to be claimed before they are stored. */
  planDeliveries(events: readonly EventDoc[]): Promise<FreshDelivery[]>;
  /**
   * One sweep step behind the cursor, over events stored SETTLE_MS before `passStart` (fixed for a
   * pass, so a pass ends: a floor moving with the clock keeps a few new events ahead of every step).
   * Returns how many events it read.
   */
  sweepEvents(passStart: Date): Promise<number>;
}

/**
 * `isUnstored`: whether this instance is attempting a delivery of its own events that it has not
 * stored yet (worker.ts); the sweep leaves those rows to that attempt.
 */
export function createFanOut(
  collections: Collections,
  now: () => Date,
  isUnstored: (id: string) => boolean,
): FanOut {
  // This instance's reading position, and the shared cursor as last read or written (undefined: not yet).
  let head: string | undefined;
  let cursor: string | null | undefined;
  const planDeliveries = async (events: readonly EventDoc[]): Promise<FreshDelivery[]> => {
    if (events.length === 0) return [];
    const endpoints = await listEnabledEndpoints(collections);
    return events.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpointWantsEvent(endpoint, event))
        .map((endpoint) => ({ delivery: deliveryOf(event, endpoint, now()), endpoint })),
    );
  };
  return {
    planDeliveries,
    async sweepEvents(passStart) {
      const floor = eventIdFloor(new Date(passStart.getTime() - SETTLE_MS));
      if (cursor === undefined) cursor = await readFanOutCursor(collections);
      if (head === undefined) head = cursor ?? floor;
      const events = (await readEventsAfter(collections, head, SWEEP_BATCH)).filter(
        (event) => event._id < floor,
      );
      const last = events.at(-1);
      if (!last) return 0;
      const rows = (await planDeliveries(events))
        .map((fresh) => fresh.delivery)
        .filter((row) => !isUnstored(row._id));
      const present = await findPresentDeliveryIds(
        collections,
        rows.map((row) => row._id),
      );
      await insertDeliveries(
        collections,
        rows.filter((row) => !present.has(row._id)),
      );
      head = last._id;
      // Another instance moved it first: read it again next time (it only says where a restart resumes).
      cursor = (await moveFanOutCursor(collections, cursor, last._id, now())) ? last._id : undefined;
      return events.length;
    },
  };
}

function deliveryOf(event: EventDoc, endpoint: WebhookEndpointDoc, now: Date): WebhookDeliveryDoc {
  return newDeliveryOf(deliveryIdOf(event._id, endpoint._id.toHexString()), event, endpoint, now);
}
