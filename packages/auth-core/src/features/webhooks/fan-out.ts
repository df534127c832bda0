import type { Collections } from "../../db/collections.ts";
import type { EventDoc, WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";
import { eventIdFloor, readEventsAfter } from "../events/index.ts";
import { deliveryIdOf, endpointWantsEvent, newDeliveryOf } from "./rules.ts";
import { insertDeliveries, listEnabledEndpoints, moveFanOutCursor, readFanOutCursor } from "./store.ts";

/**
 * Fan-out: an event becomes one delivery row per enabled endpoint that wants it (docs/decisions/0020-webhooks.md
 * "Webhooks"). Two paths lead here and both may run on every instance, so every write is an upsert
 * keyed by event and endpoint: (1) the events this process stores, handed over by the event hub at
 * once (the low-latency path, repaired events included); (2) a sweep of the `events` collection
 * behind a shared cursor, for events stored by processes that run no delivery worker or that died
 * before handing them over. The sweep reads only events older than SETTLE_MS, so an event stored a
 * moment after a later id (relays run concurrently) is not stepped over.
 */

/** How long after its id's time an event must be stored to be fanned out by the sweep. */
const SETTLE_MS = 5_000;
const SWEEP_BATCH = 200;

export interface FanOut {
  /** Writes the deliveries of these events (the hub's path); answers those this call stored. */
  fanOutEvents(events: readonly EventDoc[]): Promise<WebhookDeliveryDoc[]>;
  /** One sweep step behind the cursor; returns how many events it read. */
  sweepEvents(): Promise<number>;
}

export function createFanOut(collections: Collections, now: () => Date): FanOut {
  // This instance's reading position, and the shared cursor as last read or written (undefined: not yet).
  let head: string | undefined;
  let cursor: string | null | undefined;
  const fanOutEvents = async (events: readonly EventDoc[]): Promise<WebhookDeliveryDoc[]> => {
    if (events.length === 0) return [];
    const endpoints = await listEnabledEndpoints(collections);
    return insertDeliveries(
      collections,
      events.flatMap((event) => deliveriesOf(event, endpoints, now())),
    );
  };
  return {
    fanOutEvents,
    async sweepEvents() {
      const floor = eventIdFloor(new Date(now().getTime() - SETTLE_MS));
      if (cursor === undefined) cursor = await readFanOutCursor(collections);
      if (head === undefined) head = cursor ?? floor;
      const events = (await readEventsAfter(collections, head, SWEEP_BATCH)).filter(
        (event) => event._id < floor,
      );
      const last = events.at(-1);
      if (!last) return 0;
      await fanOutEvents(events);
      head = last._id;
      // Another instance moved it first: read it again next time (it only says where a restart resumes).
      cursor = (await moveFanOutCursor(collections, cursor, last._id, now())) ? last._id : undefined;
      return events.length;
    },
  };
}

function deliveriesOf(
  event: EventDoc,
  endpoints: readonly WebhookEndpointDoc[],
  now: Date,
): WebhookDeliveryDoc[] {
  return endpoints
    .filter((endpoint) => endpointWantsEvent(endpoint, event))
    .map((endpoint) =>
      newDeliveryOf(deliveryIdOf(event._id, endpoint._id.toHexString()), event, endpoint, now),
    );
}
