import { Person } from "./harness/http-client.ts";
import { checkLedger } from "./harness/ledger.ts";
import { examples, isFull, reportScenario, summarize } from "./harness/report.ts";
import { startStack } from "./harness/stack.ts";
import { type Exchange, runTraffic } from "./harness/traffic.ts";

/**
 * "Database down": the database process is SIGKILLed under load, kept down, then
 * started again on the same port and data, while the same server keeps running.
 */
export const OUTAGE = isFull
  ? {
      connections: 100,
      warmMs: 10_000,
      downMs: 10_000,
      afterMs: 15_000,
      thinkMs: [500, 1_500] as const,
    }
  : {
      connections: 20,
      warmMs: 4_000,
      downMs: 4_000,
      afterMs: 6_000,
      thinkMs: [100, 300] as const,
    };
/** The bounds: 503 within 2 s while down; working again within 5 s of the database. */
export const ANSWER_BOUND_MS = 2_000;
export const RECOVERY_BOUND_MS = 5_000;

const PROBE_EVERY_MS = 100;
/** Sign-ups sent together the moment the database dies: their hashes queue for the two cores. */
const BURST_SIGN_UPS = 10;
const BURST_ENDPOINT = "/sign-up/email (burst at the kill)";

export async function runDatabaseDownScenario() {
  const stack = await startStack({ connections: OUTAGE.connections + 1, hangAfterMs: 45_000 });
  try {
    const probe = new Person(stack.target);
    const signedUp = await probe.post("/sign-up/email", {
      name: "Probe",
      email: "probe@example.com",
      password: "reliability-password-1",
    });
    if (signedUp.status !== 200) throw new Error(`probe sign-up answered ${signedUp.status}`);
    const durationMs = OUTAGE.warmMs + OUTAGE.downMs + OUTAGE.afterMs;
    let clockStarted = () => {};
    const running = new Promise<void>((resolve) => {
      clockStarted = resolve;
    });
    const traffic = runTraffic({
      target: stack.target,
      connections: OUTAGE.connections,
      durationMs,
      maxTurns: 5_000,
      thinkMs: OUTAGE.thinkMs,
      runId: "down",
      onStart: () => clockStarted(),
    });
    const probes: Exchange[] = [];
    await running;
    const started = performance.now();
    const probing = (async () => {
      for (let i = 0; i < durationMs / PROBE_EVERY_MS && performance.now() - started < durationMs; i++) {
        const startedAt = performance.now();
        probes.push({ endpoint: "/get-session (probe)", startedAt, answer: await probe.get("/get-session") });
        await sleep(PROBE_EVERY_MS);
      }
    })();
    await sleep(OUTAGE.warmMs);
    // A sign-in reads the address's domain policy, which the server then remembers for a second
    // (db/recent-reads.ts): the sign-ups of the burst below start with no database command before
    // their password hash, and must still find the database gone while they hash, not after.
    await probe.post("/sign-in/email", { email: "probe@example.com", password: "reliability-password-1" });
    const killedAt = performance.now();
    await stack.database.kill();
    const burst = Array.from({ length: BURST_SIGN_UPS }, async (_, i) => {
      const startedAt = performance.now();
      const answer = await new Person(stack.target).post("/sign-up/email", {
        name: `Burst ${i}`,
        email: `burst-${i}@example.com`,
        password: "reliability-password-1",
      });
      probes.push({ endpoint: BURST_ENDPOINT, startedAt, answer });
    });
    await sleep(OUTAGE.downMs);
    await Promise.all(burst);
    // Back from the moment it could accept a connection, not from when the harness's own ping got
    // through: the server's driver may reconnect and answer in between.
    const restartedAt = await stack.database.start();
    const [result] = await Promise.all([traffic, probing]);
    const all = [...result.exchanges, ...probes];

    // Started while the database was down: answered within the bound, whatever the answer; and
    // those answered before it was back were refused with 503 (a request still waiting for the
    // driver's server selection when it came back may succeed).
    const duringOutage = all.filter((e) => e.startedAt >= killedAt && e.startedAt < restartedAt);
    // A request that was still waiting when the database came back and then succeeded was served,
    // not refused: like any request it must not hang, but the 2 s bound is for refusals.
    const servedAfterBack = (e: Exchange) =>
      e.answer.status < 500 && e.startedAt + e.answer.ms >= restartedAt;
    const slowAnswers = duringOutage.filter((e) => !servedAfterBack(e) && e.answer.ms > ANSWER_BOUND_MS);
    const notRefused = duringOutage.filter(
      (e) => e.startedAt + e.answer.ms < restartedAt && e.answer.status !== 503,
    );
    // Recovered once every request started afterwards succeeds: the end of the last 503 (or of
    // the first probe that read a session, if later), counted from the database being back.
    const after = all.filter((e) => e.startedAt >= restartedAt);
    const lastRefusalEnd = Math.max(
      0,
      ...after.filter((e) => e.answer.status === 503).map((e) => e.startedAt + e.answer.ms),
    );
    const firstProbeBack = probes.find((e) => e.startedAt >= restartedAt && e.answer.status === 200);
    const recoveredAt = Math.max(
      lastRefusalEnd,
      firstProbeBack ? firstProbeBack.startedAt + firstProbeBack.answer.ms : Number.POSITIVE_INFINITY,
    );
    const recoveryMs = Math.round(recoveredAt - restartedAt);
    const summary = summarize(all);
    const ledger = await checkLedger(result.ledger, stack.db, new Person(stack.target));
    const findings = await stack.findings();
    const outage = summarize(duringOutage);
    reportScenario("database-down", {
      connections: OUTAGE.connections,
      downSeconds: OUTAGE.downMs / 1000,
      ...summary,
      outageRequests: outage.requests,
      outage503: outage.unavailable,
      outageMax503Ms: Math.max(
        0,
        ...duringOutage.filter((e) => e.answer.status === 503).map((e) => Math.round(e.answer.ms)),
      ),
      burstSignUpsMaxMs: Math.round(
        Math.max(0, ...probes.filter((e) => e.endpoint === BURST_ENDPOINT).map((e) => e.answer.ms)),
      ),
      outageServedAfterBack: duringOutage.filter(servedAfterBack).length,
      outageNot503BeforeBack: notRefused.length,
      recoveryMs,
      writesChecked: ledger.checked,
      writesMissing: ledger.missing.length,
      findings: findings.map((finding) => `${finding.check}: ${finding.count}`),
      // What the server logged for any answer that was neither a success nor a 503 (its 500s).
      serverUnexpectedErrors: unexpectedErrorsOf(stack.server.process.stderr()),
    });
    return {
      summary,
      outage,
      slowAnswers: examples(slowAnswers, () => true),
      notRefused: examples(notRefused, () => true),
      otherServerErrors: examples(all, (e) => e.answer.status >= 500 && e.answer.status !== 503),
      recoveryMs,
      ledger,
      findings,
    };
  } finally {
    await stack.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The first line of each error the server logged as unexpected (a 500), with the line after it. */
function unexpectedErrorsOf(stderr: string): string[] {
  const lines = stderr.split("\n");
  const found: string[] = [];
  lines.forEach((line, index) => {
    if (line.includes("unexpected error"))
      found.push(`${line} ${lines[index + 1]?.trim() ?? ""}`.slice(0, 400));
  });
  return found.slice(0, 10);
}
