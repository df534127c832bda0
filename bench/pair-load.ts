import { Agent, request as httpRequest } from "node:http";
import { type Measurement, measureRun } from "./load.ts";

/** One answer as a pair step reads it. */
interface Answer {
  status: number;
  /** The `name=value` parts of the answer's Set-Cookie lines, joined as a Cookie header. */
  cookies: string;
  /** The Location header of a redirect, else null. */
  location: string | null;
  body: string;
}

/** Sends one timed request of a pair (counted in the rate, its latency in p50/p99). */
export type Send = (method: "GET" | "POST", path: string, init?: SendInit) => Promise<Answer>;

interface SendInit {
  body?: unknown;
  cookie?: string;
  /** The answer must be a redirect (3xx; an SSO callback's) instead of a 2xx. */
  redirect?: boolean;
}

interface PairSpec {
  name: string;
  /** http://127.0.0.1:<port>, loopback only. */
  origin: string;
  seconds: number;
  /** Pairs in flight at once: one worker each, each with its own keep-alive connection. */
  connections: number;
  /**
   * One pair of worker `worker`: its requests go through `send`; it throws when an answer is wrong
   * (counted as a failure, the worker goes on with its next pair).
   */
  pair: (send: Send, worker: number) => Promise<void>;
  watch?: Record<string, number | string | undefined>;
}

interface Tally {
  latencies: number[];
  failures: number;
}

/**
 * Like load.ts measureLoad, for flows of two dependent requests that autocannon cannot chain (the
 * second carries what the first answered, and a code that arrives beside the answer): `connections`
 * workers run pairs back to back for `seconds`, in measureRun's frame. The rate counts requests (two
 * per pair), as autocannon's does.
 */
export function measurePairs(spec: PairSpec): Promise<Measurement> {
  return measureRun(
    spec.name,
    spec.watch,
    async (seconds) => {
      const started = performance.now();
      const tally = await runPairs(spec, seconds);
      const elapsed = (performance.now() - started) / 1000;
      const sorted = tally.latencies.sort((a, b) => a - b);
      const percentile = (p: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
      return {
        served: sorted.length,
        rate: sorted.length / elapsed,
        p50: percentile(0.5),
        p99: percentile(0.99),
        failures: tally.failures,
      };
    },
    spec.seconds,
  );
}

/**
 * A Send over keep-alive connections to `origin` (at most `connections` at once); with a tally, each
 * answer's latency is recorded and each non-2xx or failed request counted. It throws on either.
 */
export function createSend(origin: string, connections: number, tally?: Tally): Send & { close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const send = async (method: "GET" | "POST", path: string, init: SendInit = {}) => {
    const started = performance.now();
    const answer = await sendRequest(agent, origin, method, path, init).catch((error: unknown) => {
      if (tally) tally.failures++;
      throw error;
    });
    tally?.latencies.push(performance.now() - started);
    const [lowest, highest] = init.redirect ? [300, 399] : [200, 299];
    if (answer.status < lowest || answer.status > highest) {
      if (tally) tally.failures++;
      throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    }
    return answer;
  };
  return Object.assign(send, { close: () => agent.destroy() });
}

async function runPairs(spec: PairSpec, seconds: number): Promise<Tally> {
  const tally: Tally = { latencies: [], failures: 0 };
  const send = createSend(spec.origin, spec.connections, tally);
  const deadline = performance.now() + seconds * 1000;
  const errors: string[] = [];
  const worker = async (index: number) => {
    while (performance.now() < deadline) {
      await spec.pair(send, index).catch((error: unknown) => {
        if (errors.length < 3) errors.push(String(error));
      });
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, index) => worker(index)));
  send.close();
  for (const error of errors) console.error(`${spec.name}: ${error}`);
  return tally;
}

function sendRequest(
  agent: Agent,
  origin: string,
  method: "GET" | "POST",
  path: string,
  init: SendInit,
): Promise<Answer> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: {
          origin,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () =>
          resolve({
            status: incoming.statusCode ?? 0,
            cookies: (incoming.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; "),
            location: incoming.headers.location ?? null,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
