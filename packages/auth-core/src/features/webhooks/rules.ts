import { ORGANIZATION_EVENT_TYPES } from "../../contracts/events.ts";
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";

/**
 * Pure decisions of webhook delivery (docs/decisions/0020-webhooks.md): the retry schedule, when an
 * endpoint is disabled, which secrets sign, which events an endpoint receives. The clock is passed in.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The wait after the n-th failed attempt (index n-1): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h,
 * 20 h, 24 h — ten attempts over about 3 days 3 h. After the last one the delivery is dead (a
 * manual replay can still send it).
 * @internal Exported for its unit test (rules.test.ts).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/**
 * An endpoint whose attempts have all failed for this long is disabled and its owners mailed.
 * @internal Exported for its unit test (rules.test.ts).
 */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;

/** How long a rotated-out secret still signs (docs/decisions/0020-webhooks.md). */
export const ROTATION_OVERLAP_MS = 24 * HOUR;

/**
 * When the next attempt is due after `failures` failed attempts (the one just made included), or
 * null when the schedule is exhausted and the delivery is dead.
 */
export function findNextAttemptAt(failures: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[failures - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function isFailingTooLong(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS;
}

/** The stored secrets that still sign at `now`: the current one and any within its overlap window. */
export function liveSecrets<S extends { expiresAt: Date | null }>(secrets: readonly S[], now: Date): S[] {
  return secrets.filter((secret) => secret.expiresAt === null || secret.expiresAt.getTime() > now.getTime());
}

/**
 * Whether an endpoint of this scope may name these types: an organization's endpoint receives only
 * events recorded under an organization (endpointWantsEvent), so a user or session type there
 * would never be delivered; an app-wide one may name any.
 */
export function typesFitScope(
  scope: WebhookEndpointDoc["organizationId"],
  eventTypes: readonly string[] | undefined,
): boolean {
  if (scope === null || eventTypes === undefined) return true;
  return eventTypes.every((type) => (ORGANIZATION_EVENT_TYPES as readonly string[]).includes(type));
}

/** Whether an endpoint receives an event of this type from this organization (null: app-wide). */
export function endpointWantsEvent(
  endpoint: Pick<WebhookEndpointDoc, "organizationId" | "eventTypes" | "enabled" | "createdAt">,
  event: { type: string; organizationId: string | null; createdAt: Date },
): boolean {
  // An endpoint receives the changes made after it was created, never the history before it.
  if (!endpoint.enabled || event.createdAt.getTime() < endpoint.createdAt.getTime()) return false;
  if (endpoint.organizationId !== null && endpoint.organizationId.toHexString() !== event.organizationId)
    return false;
  return endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(event.type);
}

/**
 * The `webhook-id` of an event's delivery to an endpoint: the same for every fan-out of the event,
 * every retry and every replay, so a receiver can drop duplicates by it.
 */
export function deliveryIdOf(eventId: string, endpointId: string): string {
  return `msg_${eventId.replace(/^evt_/, "")}_${endpointId}`;
}

/** What a delivery carries of its event. */
export interface DeliveredEvent {
  _id: string;
  type: string;
  createdAt: Date;
  organizationId: string | null;
  userId: string | null;
  data: Record<string, unknown>;
}

/** The delivery of an event to an endpoint, due now: the row fan-out and test events write. */
export function newDeliveryOf(
  id: string,
  event: DeliveredEvent,
  endpoint: Pick<WebhookEndpointDoc, "_id" | "organizationId">,
  now: Date,
): WebhookDeliveryDoc {
  return {
    _id: id,
    endpointId: endpoint._id,
    organizationId: endpoint.organizationId,
    eventId: event._id,
    eventType: event.type,
    body: webhookBodyOf(event),
    status: "pending",
    attempts: [],
    failures: 0,
    claims: 0,
    nextAttemptAt: now,
    lease: null,
    createdAt: now,
  };
}

/** The JSON text sent for an event: what the receiver verifies and parses. */
function webhookBodyOf(event: DeliveredEvent): string {
  return JSON.stringify({
    id: event._id,
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    organizationId: event.organizationId,
    userId: event.userId,
    data: event.data,
  });
}
