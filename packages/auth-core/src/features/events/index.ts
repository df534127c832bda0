/**
 * The face of events: what owners call to write an event with their change, and what listings and
 * webhooks read (docs/architecture.md, "Events written with the change").
 */

export type { EventDoc } from "../../db/documents.ts";
export {
  type EventSource,
  pushEvents,
  WITHOUT_OUTBOX,
  withoutOutbox,
} from "../../db/event-source.ts";
export { eventIdFloor } from "./ids.ts";
export { completeJournaledDeletion, deleteRowsWithEvents } from "./journal.ts";
export { listEventsPage } from "./listing.ts";
export { eventOf } from "./record.ts";
export { repairEvents } from "./repair.ts";
export {
  deleteExpiredEvents,
  outboxWrittenBy,
  readEventsAfter,
  retentionCutoff,
  startRelay,
} from "./store.ts";
