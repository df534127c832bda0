import { Person } from "./harness/http-client.ts";
import { checkLedger } from "./harness/ledger.ts";
import { examples, isFull, reportScenario, summarize } from "./harness/report.ts";
import { startStack } from "./harness/stack.ts";
import { runTraffic } from "./harness/traffic.ts";

/** "Load": 200 connections for 60 s in full; a smaller taste inside `pnpm test`. */
export const LOAD = isFull
  ? { connections: 200, durationMs: 60_000, maxTurns: 5_000, thinkMs: [1_000, 2_500] as const }
  : { connections: 25, durationMs: 8_000, maxTurns: 1_000, thinkMs: [100, 300] as const };

export async function runLoadScenario() {
  const stack = await startStack({ connections: LOAD.connections, hangAfterMs: 45_000 });
  try {
    let started = performance.now();
    const traffic = await runTraffic({
      target: stack.target,
      ...LOAD,
      runId: "load",
      onStart: () => {
        started = performance.now();
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const summary = summarize(traffic.exchanges);
    const ledger = await checkLedger(traffic.ledger, stack.db, new Person(stack.target));
    const findings = await stack.findings();
    const refused = examples(traffic.exchanges, ({ answer }) => answer.status < 200 || answer.status >= 300);
    const figures = {
      connections: LOAD.connections,
      seconds: Math.round(seconds),
      ...summary,
      requestsPerSecond: Math.round(summary.requests / seconds),
      writesChecked: ledger.checked,
      writesMissing: ledger.missing.length,
      findings: findings.map((finding) => `${finding.check}: ${finding.count}`),
      serverRssMB: Math.round(stack.server.rssBytes() / 2 ** 20),
    };
    reportScenario("load", figures);
    const serverErrors =
      stack.server.process.stderr().match(/.*(unavailable|unexpected error).*\n(.*\n){0,3}/g) ?? [];
    if (serverErrors.length > 0) console.log(`server log:\n${serverErrors.slice(0, 3).join("\n")}`);
    return { summary, ledger, findings, refused };
  } finally {
    await stack.close();
  }
}
