import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { cpuSeconds } from "./processes.ts";

/** One measured row of the table. */
export interface Measurement {
  name: string;
  /** Requests (or operations) per second. */
  rate: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx (or failed operations), which would make the rate meaningless. */
  failures: number;
  /** CPU time per request (ms) of each watched process during the measured run (see LoadSpec.watch). */
  cpuMs: Record<string, number>;
}

export interface LoadSpec {
  name: string;
  /** http://127.0.0.1:<port> — loopback only (the workplace forbids other targets). */
  origin: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Builds a fresh body per request (sign-up needs a new email each time). */
  makeBody?: () => string;
  seconds: number;
  connections: number;
  /** Processes (name → pid) whose CPU time per request is reported, e.g. the server and the database. */
  watch?: Record<string, number | string | undefined>;
}

/**
 * Runs autocannon against one endpoint for a bounded time; a warm-up second first (JIT, pools).
 * The watched processes must be quiet before the measured run and are left quiet after it: when
 * the load generator stops, a server still works through the requests it has queued (a password
 * hash takes ~180 ms; ten queued sign-ins are two seconds of CPU), and that work belongs to no
 * request the run counts.
 */
export async function measureLoad(spec: LoadSpec): Promise<Measurement> {
  return measureRun(
    spec.name,
    spec.watch,
    async (seconds) => {
      const result = await runAutocannon({ ...spec, seconds });
      return {
        served: result.requests.total,
        rate: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        failures: result.non2xx + result.errors + result.timeouts,
      };
    },
    spec.seconds,
  );
}

/** What one measured run of a load generator reports (measureRun adds the CPU per request). */
export interface RunResult {
  served: number;
  rate: number;
  p50: number;
  p99: number;
  failures: number;
}

/**
 * The frame every load measurement shares: a one-second warm-up (JIT, pools), the watched processes
 * quiet before the measured run, their CPU time divided by the requests served, and quiet again after
 * it (a server still works through the requests it has queued when the generator stops, and that
 * work belongs to no counted request). `run(seconds)` drives the load.
 */
export async function measureRun(
  name: string,
  watch: Record<string, number | string | undefined> | undefined,
  run: (seconds: number) => Promise<RunResult>,
  seconds: number,
): Promise<Measurement> {
  const watched = Object.entries(watch ?? {});
  const pids = watched.map(([, pid]) => pid);
  await run(1);
  await waitForQuiet(pids);
  const before = watched.map(([, pid]) => cpuSeconds(pid));
  const { served, ...result } = await run(seconds);
  const cpuMs = Object.fromEntries(
    watched.map(([watchedName, pid], index) => [
      watchedName,
      ((cpuSeconds(pid) - before[index]!) * 1000) / Math.max(1, served),
    ]),
  );
  await waitForQuiet(pids);
  return { name, ...result, cpuMs };
}

/**
 * Waits (at most 20 s) until the processes together use less than a tenth of a core. A pid may
 * also name one thread (processes.ts mainThreadOf); one that cannot be read counts as quiet.
 */
export async function waitForQuiet(pids: Array<number | string | undefined>): Promise<void> {
  const watched = pids.filter((pid) => pid !== undefined);
  if (watched.length === 0) return;
  const used = () => watched.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
  const deadline = Date.now() + 20_000;
  let before = used();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = used();
    if (!(now - before >= 0.025)) return; // NaN (no /proc) counts as quiet
    before = now;
  }
}

function runAutocannon(spec: LoadSpec): Promise<autocannon.Result> {
  const { makeBody } = spec;
  const requests: autocannon.Request[] | undefined = makeBody
    ? [
        {
          method: spec.method,
          path: spec.path,
          setupRequest: (request) => ({ ...request, body: makeBody() }),
        },
      ]
    : undefined;
  return autocannon({
    url: spec.origin + spec.path,
    method: spec.method,
    headers: { "content-type": "application/json", ...spec.headers },
    body: spec.body,
    requests,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: 10,
  });
}

export function uniqueSignUpBody(): string {
  const id = randomBytes(8).toString("hex");
  return JSON.stringify({ email: `bench-${id}@example.com`, password: "bench-password-1", name: "Bench" });
}
