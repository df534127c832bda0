import type { EventDoc } from "./documents.ts";

/**
 * The `comment` every command of a relay carries (features/events): the relay runs beside the
 * request, after its answer is decided, so the per-endpoint command budgets (tests) leave it out.
 */
export const RELAY_COMMENT = "tessera:event-relay";

/** Called with the events just stored in `events`, in `_id` order, once per relay. */
type EventListener = (events: readonly EventDoc[]) => void;

/**
 * One createAuth instance's in-process news of stored events (features/events relays publish here;
 * webhooks subscribe). It travels on Collections so that every owner's write function, which is
 * handed only its collections, can start the relay of the events it wrote (docs/architecture.md,
 * "Events written with the change"). Nothing here is shared between instances.
 */
export interface EventHub {
  /** Returns the unsubscribe. A listener that throws does not stop the others. */
  subscribe(listener: EventListener): () => void;
  publish(events: readonly EventDoc[]): void;
  /** Runs a relay off the request's answer path; a failure leaves the outbox for the repair pass. */
  track(work: Promise<unknown>): void;
  /**
   * Gathers events written within a few milliseconds and hands them to `relay` together: one
   * insert for a sign-up's user.created and session.created, and for many requests under load.
   */
  batch(events: readonly EventDoc[], relay: (events: EventDoc[]) => Promise<unknown>): void;
  /** Resolves once every relay started so far has finished (tests, shutdown). */
  settle(): Promise<void>;
  /** The instance's clock (options.clock): when owners' write functions date their events. */
  now(): Date;
}

/** How long a relay waits for more events to store with them (db/event-hub.ts batch). */
const BATCH_WINDOW_MS = 10;

export function createEventHub(now: () => Date): EventHub {
  const listeners = new Set<EventListener>();
  const inFlight = new Set<Promise<unknown>>();
  let queued: EventDoc[] | null = null;
  const track = (work: Promise<unknown>) => {
    const settled = work.then(
      () => undefined,
      () => undefined, // the outbox keeps the events; the repair pass relays them
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(events) {
      if (events.length === 0) return;
      for (const listener of listeners) {
        try {
          listener(events);
        } catch {
          // A subscriber's own failure; the events are stored and its cursor reads them again.
        }
      }
    },
    track,
    batch(events, relay) {
      if (queued) {
        queued.push(...events);
        return;
      }
      const batch = [...events];
      queued = batch;
      track(
        new Promise((resolve) => setTimeout(resolve, BATCH_WINDOW_MS)).then(() => {
          queued = null;
          return relay(batch);
        }),
      );
    },
    async settle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    now,
  };
}
