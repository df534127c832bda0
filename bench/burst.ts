import { Agent, request } from "node:http";
import { Worker } from "node:worker_threads";

/**
 * The rate-limit burst scenario (docs/security.md "Rate limits and the request deadline"): one client
 * sends `burst` concurrent requests to one rate-limited path while an unrelated client calls /ok one
 * request at a time; its latency during the bursts is compared with its latency when idle (target:
 * within 2×). The server trusts 127.0.0.1 as a proxy so that X-Forwarded-For names the clients: the
 * burst comes from one address per round, the unrelated client from a different address per request
 * (so it never meets its own limit). Loopback only, bounded: `rounds` bursts.
 */
export interface BurstSpec {
  /** http://127.0.0.1:<port> */
  origin: string;
  burst: number;
  rounds: number;
  /** The rate-limited path the burst goes to. */
  path: string;
}

export interface Latencies {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

export interface BurstResult {
  spec: BurstSpec;
  idle: Latencies;
  during: Latencies;
  /** Burst answers by status, summed over the rounds. */
  statuses: Record<number, number>;
  /** How long each burst took until its last answer (ms). */
  burstMs: number[];
}

/** Per round: idle samples first, then the burst; alternating keeps both under the same background load. */
const IDLE_SAMPLES = 30;
const WARM_UP = 20;

function send(agent: Agent, origin: string, path: string, client: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { agent, headers: { "x-forwarded-for": client } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * The burst runs in a worker thread: handling its answers on the measuring thread would add the
 * client's own work to the unrelated client's latency.
 */
const BURST_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const send = (path, client) => new Promise((resolve, reject) => {
  const req = http.request(workerData.origin + path, { agent, headers: { "x-forwarded-for": client } }, (res) => {
    res.resume();
    res.on("end", () => resolve(res.statusCode));
  });
  req.on("error", reject);
  req.end();
});
parentPort.on("message", async ({ path, client, count }) => {
  const started = performance.now();
  // A failed request counts as status 0 rather than leaving the bench waiting.
  const statuses = await Promise.all(Array.from({ length: count }, () => send(path, client).catch(() => 0)));
  parentPort.postMessage({ statuses, ms: performance.now() - started });
});
`;

interface BurstAnswer {
  statuses: number[];
  ms: number;
}

function summarize(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { samples: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? Number.NaN };
}

export async function measureBurst(spec: BurstSpec): Promise<BurstResult> {
  const quiet = new Agent({ keepAlive: true, maxSockets: 1 });
  const worker = new Worker(BURST_WORKER, { eval: true, workerData: { origin: spec.origin } });
  const burst = (path: string, client: string) =>
    new Promise<BurstAnswer>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.postMessage({ path, client, count: spec.burst });
    });
  let unrelated = 0;
  // 203.0.113.0/24, then 203.0.114.0/24 …: a new address per request, far below any limit.
  const nextClient = () => `203.0.${113 + Math.floor(unrelated / 256)}.${unrelated++ % 256}`;
  const timedOk = async (): Promise<number> => {
    const started = performance.now();
    const status = await send(quiet, spec.origin, "/api/auth/ok", nextClient());
    if (status !== 200) throw new Error(`the unrelated client's /ok answered ${status}`);
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < WARM_UP; i++) await timedOk();
    // Opens the burst's connections, so that the rounds measure requests, not TCP handshakes.
    await burst("/api/auth/ok", "192.0.2.250");
    const idle: number[] = [];
    const during: number[] = [];
    const statuses: Record<number, number> = {};
    const burstMs: number[] = [];
    for (let round = 0; round < spec.rounds; round++) {
      for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await timedOk());
      let done = false;
      const answered = burst(spec.path, `198.51.100.${round + 1}`).then((answer) => {
        done = true;
        return answer;
      });
      while (!done) during.push(await timedOk());
      const answer = await answered;
      burstMs.push(answer.ms);
      for (const status of answer.statuses) statuses[status] = (statuses[status] ?? 0) + 1;
    }
    return { spec, idle: summarize(idle), during: summarize(during), statuses, burstMs };
  } finally {
    quiet.destroy();
    await worker.terminate();
  }
}

export function printBurst(result: BurstResult): void {
  const { idle, during, spec } = result;
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const ratio = during.p50 / idle.p50;
  console.log(
    `\nrate-limit burst: ${spec.rounds} × ${spec.burst} concurrent GET ${spec.path} from one address (rate limiting on)`,
  );
  console.log(
    `  burst answers: ${Object.entries(result.statuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(", ")}; each burst took ${result.burstMs.map((value) => value.toFixed(0)).join(", ")} ms`,
  );
  console.log(
    `  unrelated client /ok idle:         p50 ${ms(idle.p50)}, p95 ${ms(idle.p95)}, max ${ms(idle.max)} (${idle.samples} requests)`,
  );
  console.log(
    `  unrelated client /ok during burst: p50 ${ms(during.p50)}, p95 ${ms(during.p95)}, max ${ms(during.max)} (${during.samples} requests)`,
  );
  console.log(
    `  p50 ratio ${ratio.toFixed(2)}× (p95 ${(during.p95 / idle.p95).toFixed(2)}×), target ≤ 2×: ${ratio <= 2 ? "PASS" : "MISS"}`,
  );
}
