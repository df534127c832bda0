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
  /** Awaited between the warm-up and the measured run (e.g. until the warm-up's requests in flight are served). */
  afterWarmUp?: () => Promise<void>;
}

/** Runs autocannon against one endpoint for a bounded time; a warm-up second first (JIT, pools). */
export async function measureLoad(spec: LoadSpec): Promise<Measurement> {
  await runAutocannon({ ...spec, seconds: 1 });
  await spec.afterWarmUp?.();
  const watched = Object.entries(spec.watch ?? {});
  const before = watched.map(([, pid]) => cpuSeconds(pid));
  const result = await runAutocannon(spec);
  const served = Math.max(1, result.requests.total);
  const cpuMs = Object.fromEntries(
    watched.map(([name, pid], index) => [name, ((cpuSeconds(pid) - before[index]!) * 1000) / served]),
  );
  return {
    name: spec.name,
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMs,
  };
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
