import { establishedConnections } from "./harness/connections.ts";
import { createAgent, Person } from "./harness/http-client.ts";
import { examples, isFull, reportScenario, summarize } from "./harness/report.ts";
import { startStack } from "./harness/stack.ts";
import { runTraffic } from "./harness/traffic.ts";
import { WireProxy } from "./harness/wire-proxy.ts";

/**
 * "Slow database": every round trip between the server and the database takes 500 ms
 * longer (a proxy holds each command back). The server runs with a 5 s request deadline
 * (advanced.requestTimeoutMs; the default 30 s would only make the run longer).
 */
export const SLOW = isFull
  ? { connections: 100, durationMs: 40_000, thinkMs: [100, 400] as const }
  : { connections: 20, durationMs: 8_000, thinkMs: [50, 250] as const };
export const ROUND_TRIP_DELAY_MS = 500;
export const DEADLINE_MS = 5_000;
/** The deadline fires on the server's event loop, which is busy under load: it may be late by this much. */
export const DEADLINE_TOLERANCE_MS = 1_000;
const SAMPLE_EVERY_MS = 500;
const DRAIN_LIMIT_MS = 4 * DEADLINE_MS;

export async function runSlowDatabaseScenario() {
  let proxy: WireProxy | null = null;
  const stack = await startStack({
    connections: SLOW.connections,
    hangAfterMs: 3 * DEADLINE_MS,
    configLines: `advanced: { requestTimeoutMs: ${DEADLINE_MS}, providerTimeoutMs: 2000 },`,
    route: async (databasePort) => {
      proxy = new WireProxy({ targetPort: databasePort });
      await proxy.start();
      return proxy.uri;
    },
  });
  const wire = proxy as unknown as WireProxy;
  try {
    const serverPort = Number(new URL(stack.server.apiURL).port);
    let rssAtStart = Number.NaN;
    const samples: { rss: number; inFlight: number; clients: number }[] = [];
    let sampling = true;
    let sampler: Promise<void> = Promise.resolve();
    const sample = async () => {
      for (let i = 0; sampling && i < (SLOW.durationMs + DRAIN_LIMIT_MS) / SAMPLE_EVERY_MS + 10; i++) {
        samples.push({
          rss: stack.server.rssBytes(),
          inFlight: wire.inFlight,
          clients: establishedConnections(serverPort, "local"),
        });
        await sleep(SAMPLE_EVERY_MS);
      }
    };
    // The people sign up at full speed; the database turns slow when the clock starts.
    const traffic = await runTraffic({
      target: stack.target,
      ...SLOW,
      maxTurns: 2_000,
      runId: "slow",
      onStart: () => {
        rssAtStart = stack.server.rssBytes();
        wire.delayMs = ROUND_TRIP_DELAY_MS;
        sampler = sample();
      },
    });
    // The load stops: every client connection closes, and the work the server still holds must end.
    stack.target.agent.destroy();
    const stoppedAt = performance.now();
    while (
      (wire.inFlight > 0 || establishedConnections(serverPort, "local") > 0) &&
      performance.now() - stoppedAt < DRAIN_LIMIT_MS
    ) {
      await sleep(100);
    }
    const drainMs = Math.round(performance.now() - stoppedAt);
    sampling = false;
    await sampler;
    wire.delayMs = 0;
    // A command the server sends on its own (a timer's, not a request's) may be on the wire at the
    // moment the drain loop ends, delayed 500 ms: "nothing piles up" means the count returns to zero,
    // so it is read once that has happened or 2 s have passed (CI once caught one such command).
    const settleFrom = performance.now();
    while (
      (wire.inFlight > 0 || establishedConnections(serverPort, "local") > 0) &&
      performance.now() - settleFrom < 2_000
    ) {
      await sleep(100);
    }
    const after = {
      inFlight: wire.inFlight,
      clientConnections: establishedConnections(serverPort, "local"),
      poolConnections: establishedConnections(wire.port, "local"),
    };
    const summary = summarize(traffic.exchanges);
    const overDeadline = traffic.exchanges.filter((e) => e.answer.ms > DEADLINE_MS + DEADLINE_TOLERANCE_MS);
    const rss = samples.map((sample) => sample.rss);
    const half = Math.floor(rss.length / 2);
    const [firstHalf, secondHalf] = [rss.slice(0, half), rss.slice(half)];
    const figures = {
      connections: SLOW.connections,
      roundTripDelayMs: ROUND_TRIP_DELAY_MS,
      deadlineMs: DEADLINE_MS,
      ...summary,
      overDeadline: overDeadline.length,
      rssStartMB: mb(rssAtStart),
      rssMedianFirstHalfMB: mb(median(firstHalf)),
      rssMedianSecondHalfMB: mb(median(secondHalf)),
      rssPeakFirstHalfMB: mb(Math.max(...firstHalf)),
      rssPeakSecondHalfMB: mb(Math.max(...secondHalf)),
      rssEndMB: mb(rss.at(-1) ?? Number.NaN),
      peakInFlightCommands: Math.max(...samples.map((sample) => sample.inFlight)),
      peakClientConnections: Math.max(...samples.map((sample) => sample.clients)),
      drainMs,
      afterInFlightCommands: after.inFlight,
      afterClientConnections: after.clientConnections,
      afterPoolConnections: after.poolConnections,
    };
    reportScenario("slow-database", figures);
    // Still reachable afterwards, at full speed.
    const agent = createAgent(1);
    const check = await new Person({ ...stack.target, agent }).get("/ok");
    agent.destroy();
    return {
      summary,
      figures,
      overDeadline: examples(overDeadline, () => true),
      unexpected: examples(
        traffic.exchanges,
        (e) => e.answer.status !== 503 && (e.answer.status < 200 || e.answer.status >= 300),
      ),
      after,
      okAfter: check.status,
    };
  } finally {
    await stack.close();
    await wire.close();
  }
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
