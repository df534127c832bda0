/**
 * The face of events: what owners call to write an event with their change, and what listings and
 * webhooks read (docs/architecture.md, "Events written with the change").
 */
export type { EventListener } from "../../db/event-hub.ts";
export { eventIdFloor, isEventId, newEventId } from "./ids.ts";
export { readEventsAfter, relayStrandedOutboxes, startRelay } from "./store.ts";
