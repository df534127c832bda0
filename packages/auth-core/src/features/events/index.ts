/**
 * The face of events: what owners call to write an event with their change, and what listings and
 * webhooks read (docs/architecture.md, "Events written with the change").
 */

export type { EventDoc } from "../../db/documents.ts";
export type { EventListener } from "../../db/event-hub.ts";
export type { EventSource } from "../../db/event-source.ts";
export { eventIdFloor, isEventId, newEventId } from "./ids.ts";
export {
  completeJournaledDeletion,
  deleteRowsWithEvents,
  type RowEvent,
  repairRowsDeletions,
} from "./journal.ts";
export { listEventsPage, toTesseraEvent } from "./listing.ts";
export { type EventScope, eventOf } from "./record.ts";
export { repairEvents } from "./repair.ts";
export {
  deleteExpiredEvents,
  pushEvents,
  readEventsAfter,
  relayStrandedOutboxes,
  startRelay,
  WITHOUT_OUTBOX,
  withoutOutbox,
} from "./store.ts";
