import type { AuthContext } from "../../context.ts";
import type { EventDoc, WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";
import { claimLeases } from "../../db/lease-claims.ts";
import type { OutboundFetch } from "../../http/outbound.ts";
import { createLeaseOwner, createPollLoop } from "../poll-loop.ts";
import { attemptDelivery, type OnEndpointDisabled, type RecordAttempt } from "./deliver.ts";
import { createFanOut, type FreshDelivery } from "./fan-out.ts";
import {
  claimDeliveries,
  findDueDeliveries,
  findEndpointsByIds,
  insertAttemptedDeliveries,
  recordAttempt,
} from "./store.ts";

/**
 * The delivery worker of one createAuth instance (docs/decisions/0020-webhooks.md, docs/scale.md
 * "Webhook delivery"). It holds no module state: two instances in one process are two workers,
 * like two servers on one database. The deliveries of the events this process stores are handed
 * over at once (fan-out.ts), claimed a batch at a time (one insert of claims, db/lease-claims.ts),
 * attempted on a pool of `concurrency` (one keep-alive connection per lane: node's global agent),
 * and only then stored, each with its first attempt, many in one insert (store.ts
 * insertAttemptedDeliveries): two writes per batch. A crash before that insert leaves the event
 * to the sweep, and the claim to run out. At most every `pollInterval` ms, and again at once while
 * due deliveries keep coming, a full pass sweeps the events other processes stored (fan-out.ts) and
 * claims due deliveries (retries, other instances' leases that ran out) with a lease on each row.
 */
export interface WebhookWorker {
  start(): void;
  /** Stops polling and waits for the attempts in flight (their leases are released by recording). */
  stop(): Promise<void>;
  /** One full pass now (sweep, then every due delivery); resolves when its attempts are recorded. */
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
  const { collections } = auth;
  const owner = createLeaseOwner();
  // Fresh deliveries planned and not stored yet: this instance's sweep leaves them to their attempt.
  const unstored = new Set<string>();
  const fanOut = createFanOut(collections, auth.now, (id) => unstored.has(id));
  const pool = createAttemptPool(settings.concurrency);
  const firstAttempts = createBatchWriter((rows: WebhookDeliveryDoc[]) =>
    insertAttemptedDeliveries(collections, rows),
  );
  const recordFirst: RecordAttempt = (delivery, attempt, outcome) =>
    firstAttempts.add({ ...delivery, ...outcome, attempts: [attempt], claims: 1, lease: null });
  const recordLeased: RecordAttempt = (delivery, attempt, outcome) =>
    recordAttempt(collections, delivery._id, owner, attempt, outcome);
  // A claimed batch waits for free lanes before its last attempt starts: a few lanes' worth at
  // most, so every attempt starts and ends (10 s timeout) well within its lease.
  const batchSize = settings.concurrency * 4;
  let unsubscribe: (() => void) | null = null;
  let handOver = Promise.resolve();
  const logFailure = (error: unknown) => auth.options.logger.error("webhooks: delivery pass failed", error);

  const start = (
    delivery: WebhookDeliveryDoc,
    endpoint: WebhookEndpointDoc | null,
    record: RecordAttempt,
    ended = () => {},
  ) =>
    pool.start((sent) =>
      attemptDelivery(auth, send, delivery, endpoint, { onDisabled, record, sent })
        .catch(logFailure)
        .finally(ended),
    );
  const leaseUntil = (now: Date) => new Date(now.getTime() + settings.leaseMs);

  // Deliveries planned from this instance's own events, not stored yet: their claim `<id>|0` is
  // taken before the attempt, so a sweep that stores one meanwhile cannot have it sent twice.
  const deliverFresh = async (planned: readonly FreshDelivery[]) => {
    for (const { delivery } of planned) unstored.add(delivery._id);
    for (let from = 0; from < planned.length; from += batchSize) {
      const batch = planned.slice(from, from + batchSize);
      const now = auth.now();
      const rows = batch.map(({ delivery }) => ({ key: delivery._id, from: 0 }));
      const taken = await claimLeases(collections.webhookClaims, rows, owner, now, leaseUntil(now)).catch(
        (error: unknown) => {
          for (const { delivery } of planned.slice(from)) unstored.delete(delivery._id);
          throw error;
        },
      );
      for (const { delivery, endpoint } of batch) {
        const forget = () => unstored.delete(delivery._id);
        if (taken.get(delivery._id) === 0) await start(delivery, endpoint, recordFirst, forget);
        else forget();
      }
    }
  };
  /** Claims due deliveries with a lease on each and starts their attempts; answers how many were held. */
  const claimDue = async (due: readonly WebhookDeliveryDoc[]) => {
    const now = auth.now();
    const held = await claimDeliveries(collections, due, owner, now, leaseUntil(now));
    const ids = new Map(held.map((delivery) => [delivery.endpointId.toHexString(), delivery.endpointId]));
    const endpoints = await findEndpointsByIds(collections, [...ids.values()]);
    const byId = new Map(endpoints.map((endpoint) => [endpoint._id.toHexString(), endpoint]));
    for (const delivery of held)
      await start(delivery, byId.get(delivery.endpointId.toHexString()) ?? null, recordLeased);
    return held.length;
  };
  const deliverDue = async () => {
    for (;;) {
      const due = await findDueDeliveries(collections, auth.now(), batchSize);
      if (due.length === 0) return;
      // Every candidate was another instance's: let the poll come round rather than spin on them.
      if ((await claimDue(due)) === 0) return;
    }
  };
  const fullPass = async () => {
    const passStart = auth.now();
    while ((await fanOut.sweepEvents(passStart)) > 0) {}
    await deliverDue();
  };
  const loop = createPollLoop(fullPass, { pollInterval: settings.pollInterval, onError: logFailure });
  // The hub's events wait while the previous ones are planned and claimed, then go together: under
  // load one endpoints read and one claims insert serve many requests' events. This runs beside the
  // poll's full passes, so a long sweep never holds up fresh events.
  let arriving: EventDoc[] = [];
  let fanningOut = false;
  const onEvents = (events: readonly EventDoc[]) => {
    arriving.push(...events);
    if (fanningOut) return;
    fanningOut = true;
    handOver = (async () => {
      while (arriving.length > 0) {
        const batch = arriving;
        arriving = [];
        try {
          await deliverFresh(await fanOut.planDeliveries(batch));
        } catch (error) {
          logFailure(error);
        }
      }
      fanningOut = false;
    })();
  };
  let started = false;
  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe = collections.eventHub.subscribe(onEvents);
      loop.start();
    },
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = null;
      await loop.stop();
      await handOver;
      await pool.drain();
    },
    async runPass() {
      await handOver;
      await fullPass();
      await pool.drain();
    },
  };
}

/**
 * Attempts holding at most `size` lanes at a time. An attempt frees its lane when it calls
 * `release` (once its request is answered) or ends, so recording it never holds up the next send.
 */
function createAttemptPool(size: number) {
  const lanes = new Set<Promise<void>>();
  const running = new Set<Promise<void>>();
  return {
    /** Resolves once the attempt has started: at once while a lane is free, else when one frees. */
    async start(attempt: (release: () => void) => Promise<void>): Promise<void> {
      while (lanes.size >= size) await Promise.race(lanes);
      let release = () => {};
      const lane = new Promise<void>((resolve) => {
        release = resolve;
      });
      lanes.add(lane);
      void lane.then(() => lanes.delete(lane));
      const task: Promise<void> = attempt(release).finally(() => {
        release();
        running.delete(task);
      });
      running.add(task);
    },
    /** Resolves when every attempt started so far has ended (and been recorded). */
    async drain(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

/**
 * Gathers items into one write: the items added while no write runs go out together at the next
 * turn, and those added while one runs go out together after it. Each add resolves with its item's
 * answer from the write (or rejects with the write's failure).
 */
function createBatchWriter<T, R>(write: (items: T[]) => Promise<R[]>) {
  type Entry = { item: T; resolve: (answer: R) => void; reject: (error: unknown) => void };
  let queue: Entry[] = [];
  let flushing = false;
  const flush = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const answers = await write(batch.map((entry) => entry.item));
        for (const [index, entry] of batch.entries()) entry.resolve(answers[index] as R);
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    flushing = false;
  };
  return {
    add(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (flushing) return;
        flushing = true;
        queueMicrotask(() => void flush());
      });
    },
  };
}
