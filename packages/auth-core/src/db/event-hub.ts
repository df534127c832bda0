import type { EventDoc } from "./documents.ts";

/**
 * The `comment` every command of a relay carries (features/events): the relay runs beside the
 * request, after its answer is decided, so the per-endpoint command budgets (tests) leave it out.
 */
export const RELAY_COMMENT = "tessera:event-relay";

/**
 * Called with events once they are stored: as a write returns with them in its document's outbox
 * (before their insert into `events`), or as a repair or a deletion stores them in `events`.
 */
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
   * Gathers events written within BATCH_WINDOW_MS and hands them to `relay` together: one insert
   * into `events` for every request's events of that time, so that storing them costs a sign-up a
   * share of one command rather than a command of its own (docs/scale.md "Events on a sign-up").
   */
  batch(events: readonly EventDoc[], relay: (events: EventDoc[]) => Promise<unknown>): void;
  /**
   * Starts the gathered batch now and resolves once every relay started so far has finished
   * (listings, so an instance reads its own events; tests; shutdown).
   */
  settle(): Promise<void>;
  /** The instance's clock (options.clock): when owners' write functions date their events. */
  now(): Date;
}

/**
 * How long gathered events wait for more before one insert stores them all (batch). Webhooks do not
 * wait for it: they are handed each change's events as it is written (features/events startRelay);
 * the `events` collection serves listings, which settle first, and other instances' sweeps, which
 * read only events older than 5 s (features/webhooks fan-out.ts SETTLE_MS).
 * @internal Exported for its test (event-hub.test.ts).
 */
export const BATCH_WINDOW_MS = 1_000;
/** A batch this large is stored at once, whatever the window. */
const BATCH_MAX = 500;

export function createEventHub(now: () => Date): EventHub {
  const listeners = new Set<EventListener>();
  const inFlight = new Set<Promise<unknown>>();
  let queued: { events: EventDoc[]; start: () => void } | null = null;
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
      if (!queued) {
        const gathered: EventDoc[] = [];
        let start = () => {};
        const due = new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, BATCH_WINDOW_MS);
          start = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        queued = { events: gathered, start };
        track(
          due.then(() => {
            if (queued?.events === gathered) queued = null;
            return relay(gathered);
          }),
        );
      }
      queued.events.push(...events);
      if (queued.events.length >= BATCH_MAX) {
        queued.start();
        queued = null;
      }
    },
    async settle() {
      queued?.start();
      queued = null;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    now,
  };
}
