import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { AuthContext } from "../../context.ts";
import type { EventDoc, WebhookDeliveryDoc } from "../../db/documents.ts";
import type { OutboundFetch } from "../../http/outbound.ts";
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
  const owner = `${hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;
  const fanOut = createFanOut(auth.collections, auth.now);
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let woken = false;
  let unsubscribe: (() => void) | null = null;
  let handOver = Promise.resolve();
  const logFailure = (error: unknown) => auth.options.logger.error("webhooks: delivery pass failed", error);

  // Deliveries this instance just stored from its own events: attempted without first finding them
  // among all due rows (a scan on FerretDB v1). Claims are the same unique inserts, so another
  // instance that finds one first still sends it once.
  const fresh: WebhookDeliveryDoc[] = [];
  const attemptAll = async (candidates: readonly WebhookDeliveryDoc[], now: Date): Promise<number> => {
    let next = 0;
    let claimed = 0;
    const until = new Date(now.getTime() + settings.leaseMs);
    const lane = async () => {
      while (next < candidates.length) {
        const delivery = candidates[next++]!;
        if (!(await claimDelivery(auth.collections, delivery, owner, now, until))) continue;
        claimed++;
        await attemptDelivery(auth, send, owner, delivery, onDisabled);
      }
    };
    await Promise.all(Array.from({ length: settings.concurrency }, lane));
    return claimed;
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
  const poke = () => {
    woken = true;
    wake?.();
  };
  const onEvents = (events: readonly EventDoc[]) => {
    handOver = handOver
      .then(() => fanOut.fanOutEvents(events))
      .then((stored) => {
        fresh.push(...stored);
        poke();
      }, logFailure);
  };
  const run = async () => {
    while (running) {
      woken = false;
      await runPass().catch(logFailure);
      if (!running || woken) continue;
      await new Promise<void>((resolve) => {
        // Unref'd: a worker alone (a CLI run that opened an auth) does not keep the process alive.
        const timer = setTimeout(resolve, settings.pollInterval);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  };
  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe = auth.collections.eventHub.subscribe(onEvents);
      loop = run();
    },
    async stop() {
      running = false;
      unsubscribe?.();
      unsubscribe = null;
      wake?.();
      await loop;
      await handOver;
      loop = null;
    },
    runPass,
  };
}
