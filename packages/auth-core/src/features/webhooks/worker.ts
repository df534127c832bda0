import type { AuthContext } from "../../context.ts";
import type { EventDoc, WebhookDeliveryDoc } from "../../db/documents.ts";
import type { OutboundFetch } from "../../http/outbound.ts";
import { createLeaseOwner, createPollLoop, runInLanes } from "../poll-loop.ts";
import { attemptDelivery, type OnEndpointDisabled } from "./deliver.ts";
import { createFanOut } from "./fan-out.ts";
import { claimDelivery, findDueDeliveries } from "./store.ts";

/**
 * The delivery worker of one createAuth instance (docs/decisions/0020-webhooks.md). It holds no module
 * state: two instances in one process are two workers, like two servers on one database. Each pass
 * sweeps new events into deliveries (fan-out.ts), then claims due deliveries one at a time with a
 * lease (store.ts claimDelivery) on `concurrency` lanes until none is due. Events this process
 * stores wake it at once; otherwise it polls every `pollInterval` ms.
 */
export interface WebhookWorker {
  start(): void;
  /** Stops polling and waits for the attempts in flight (their leases are released by recording). */
  stop(): Promise<void>;
  /** One pass now (sweep, then every due delivery); resolves when it is done. */
  runPass(): Promise<void>;
}

export interface WorkerSettings {
  pollInterval: number;
  concurrency: number;
  /** How long a claim holds a delivery: longer than an attempt's timeout, so only a dead instance's runs out. */
  leaseMs: number;
}

export function createWebhookWorker(
  auth: AuthContext,
  send: OutboundFetch,
  settings: WorkerSettings,
  onDisabled: OnEndpointDisabled,
): WebhookWorker {
  const owner = createLeaseOwner();
  const fanOut = createFanOut(auth.collections, auth.now);
  let unsubscribe: (() => void) | null = null;
  let handOver = Promise.resolve();
  const logFailure = (error: unknown) => auth.options.logger.error("webhooks: delivery pass failed", error);

  // Deliveries this instance just stored from its own events: attempted without first finding them
  // among all due rows (a scan on FerretDB v1). Claims are the same unique inserts, so another
  // instance that finds one first still sends it once.
  const fresh: WebhookDeliveryDoc[] = [];
  const attemptAll = (candidates: readonly WebhookDeliveryDoc[], now: Date): Promise<number> => {
    const until = new Date(now.getTime() + settings.leaseMs);
    return runInLanes(
      candidates,
      settings.concurrency,
      (delivery) => claimDelivery(auth.collections, delivery, owner, now, until),
      (delivery) => attemptDelivery(auth, send, owner, delivery, onDisabled),
    );
  };
  const deliverDue = async () => {
    for (;;) {
      while (fresh.length > 0) await attemptAll(fresh.splice(0), auth.now());
      const now = auth.now();
      const due = await findDueDeliveries(auth.collections, now, settings.concurrency * 4);
      if (due.length === 0) return;
      // Every candidate was another instance's: let the poll come round rather than spin on them.
      if ((await attemptAll(due, now)) === 0 && fresh.length === 0) return;
    }
  };
  const runPass = async () => {
    while ((await fanOut.sweepEvents()) > 0) {}
    await deliverDue();
  };
  const loop = createPollLoop(runPass, { pollInterval: settings.pollInterval, onError: logFailure });
  const onEvents = (events: readonly EventDoc[]) => {
    handOver = handOver
      .then(() => fanOut.fanOutEvents(events))
      .then((stored) => {
        fresh.push(...stored);
        loop.poke();
      }, logFailure);
  };
  let started = false;
  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe = auth.collections.eventHub.subscribe(onEvents);
      loop.start();
    },
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = null;
      await loop.stop();
      await handOver;
    },
    runPass,
  };
}
