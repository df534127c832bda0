import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

/**
 * The loop of the lease-based workers (features/webhooks, features/mail-outbox): one pass at a time,
 * then a wait of `pollInterval` ms that a poke cuts short. It holds no module state; each
 * createAuth instance makes its own. Timers are unref'd: a worker alone (a CLI run that opened an
 * auth) does not keep the process alive.
 */
export interface PollLoop {
  start(): void;
  /** Stops waiting and resolves when the pass in flight has finished. */
  stop(): Promise<void>;
  /** Runs a pass as soon as the current one (if any) is done. */
  poke(): void;
}

export function createPollLoop(
  runPass: () => Promise<void>,
  settings: {
    pollInterval: number;
    onError: (error: unknown) => void;
    /** Wait one interval before the first pass (no database command when an instance starts). */
    waitFirst?: boolean;
  },
): PollLoop {
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let woken = false;
  const wait = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, settings.pollInterval);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).then(() => {
      wake = null;
    });
  const run = async () => {
    if (settings.waitFirst) await wait();
    while (running) {
      woken = false;
      await runPass().catch(settings.onError);
      if (!running || woken) continue;
      await wait();
    }
  };
  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    poke() {
      woken = true;
      wake?.();
    },
  };
}

/**
 * Works through `candidates` on `concurrency` lanes: each lane takes the next one, `claim`s it and,
 * when claimed, `attempt`s it. Resolves with how many were claimed.
 */
export async function runInLanes<T>(
  candidates: readonly T[],
  concurrency: number,
  claim: (candidate: T) => Promise<boolean>,
  attempt: (candidate: T) => Promise<void>,
): Promise<number> {
  let next = 0;
  let claimed = 0;
  const lane = async () => {
    while (next < candidates.length) {
      const candidate = candidates[next++] as T;
      if (!(await claim(candidate))) continue;
      claimed++;
      await attempt(candidate);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return claimed;
}

/** A worker's name in the leases it takes: host, process and a random part (two instances in one process differ). */
export function createLeaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;
}
