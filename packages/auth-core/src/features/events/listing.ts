import { MAX_PAGE_SIZE } from "../../contracts/admin-fields.ts";
import type { EventType, TesseraEvent } from "../../contracts/events.ts";
import type { EventPage } from "../../contracts/events-listing.ts";
import type { Collections } from "../../db/collections.ts";
import type { EventDoc } from "../../db/documents.ts";
import { type EventQuery, findEventsPage } from "./store.ts";

/** An event as listings answer it and webhooks deliver it. */
function toTesseraEvent(doc: EventDoc): TesseraEvent {
  return {
    id: doc._id,
    type: doc.type as EventType,
    createdAt: doc.createdAt.toISOString(),
    organizationId: doc.organizationId,
    userId: doc.userId,
    ...(doc.actor !== undefined ? { actor: doc.actor } : {}),
    data: doc.data,
  };
}

/** A listing's page (admin or organization): newest first, `nextCursor` when more may follow. */
export async function listEventsPage(
  collections: Collections,
  query: Omit<EventQuery, "limit" | "since"> & { since?: string; limit?: number },
): Promise<EventPage> {
  const limit = query.limit ?? MAX_PAGE_SIZE;
  // This instance's own events still gathered for their insert are stored first (db/event-hub.ts).
  await collections.eventHub.settle();
  const docs = await findEventsPage(collections, {
    ...query,
    since: query.since === undefined ? undefined : new Date(query.since),
    limit,
  });
  return {
    events: docs.map(toTesseraEvent),
    nextCursor: docs.length === limit ? (docs.at(-1)?._id ?? null) : null,
  };
}
