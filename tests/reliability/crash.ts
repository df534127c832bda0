import { createAuth } from "@tessera/auth-core";
import { checkDataInvariants } from "../../packages/cli/src/invariants.ts";
import { type CrashOperation, crashOperations, type Prepared } from "./crash-operations.ts";
import { isFull, reportScenario } from "./harness/report.ts";
import { DB_NAME, SERVER_SECRET } from "./harness/server-process.ts";
import { type Stack, startStack } from "./harness/stack.ts";
import { WireProxy } from "./harness/wire-proxy.ts";

/**
 * "Crash in the middle": the server is SIGKILLed while a multi-write operation runs,
 * then started again on the same database. The kill point is random but exact: a proxy counts the
 * operation's database commands and kills the server when the k-th arrives (k uniform over the
 * operation's commands, measured once per operation), holding that command back — so the database
 * holds exactly the first k-1 writes and reads, as after a crash between two of them.
 *
 * Afterwards the state must be whole: no finding of the invariant checker and no half-done state of
 * the operation; or the person's next request (the same one again) repairs it; or `auth.cleanup()`.
 * Each run is counted under the first of these that holds; any other run fails the test (docs/scale.md
 * "Crash in the middle" says which mechanism repairs which operation).
 */
export const CRASH = isFull ? { runs: 200 } : { runs: 12 };

export type Outcome = "whole" | "repaired-by-next-request" | "repaired-by-cleanup" | "broken";

export interface OperationTally {
  runs: number;
  /** Commands the operation sends when nothing fails (the range k is drawn from). */
  commands: number;
  whole: number;
  repairedByNextRequest: number;
  repairedByCleanup: number;
  broken: number;
  /** Of the broken runs, those that `tessera doctor --fix` repaired. */
  brokenButRepairedByDoctorFix: number;
  /** Runs whose operation answered before its k-th command (it sent fewer this time). */
  finishedBeforeKill: number;
  brokenExamples: string[];
}

export async function runCrashScenario() {
  let proxy: WireProxy | null = null;
  const stack = await startStack({
    connections: 8,
    hangAfterMs: 20_000,
    route: async (databasePort) => {
      proxy = new WireProxy({ targetPort: databasePort });
      await proxy.start();
      return proxy.uri;
    },
  });
  const wire = proxy as unknown as WireProxy;
  const operations = crashOperations(stack.db);
  const tallies: Record<string, OperationTally> = {};
  try {
    for (const [index, operation] of operations.entries()) {
      const commands = await countCommands(stack, wire, operation);
      const tally: OperationTally = {
        runs: 0,
        commands,
        whole: 0,
        repairedByNextRequest: 0,
        repairedByCleanup: 0,
        broken: 0,
        brokenButRepairedByDoctorFix: 0,
        finishedBeforeKill: 0,
        brokenExamples: [],
      };
      tallies[operation.name] = tally;
      const runs =
        Math.floor(CRASH.runs / operations.length) + (index < CRASH.runs % operations.length ? 1 : 0);
      for (let run = 0; run < runs; run++) {
        const k = 1 + Math.floor(Math.random() * commands);
        const prepared = await operation.prepare(stack.target, `${operation.name}-${run}`);
        const before = await findingCounts(stack);
        const killed = await runUntilKilled(stack, wire, prepared, k);
        if (!killed) tally.finishedBeforeKill++;
        const outcome = await judge(stack, prepared, before);
        tally.runs++;
        if (outcome.kind === "broken") {
          tally.broken++;
          if (outcome.doctorFixRepairs) tally.brokenButRepairedByDoctorFix++;
          if (tally.brokenExamples.length < 3)
            tally.brokenExamples.push(`k=${k}: ${outcome.problems.join("; ")}`);
        } else if (outcome.kind === "whole") tally.whole++;
        else if (outcome.kind === "repaired-by-next-request") tally.repairedByNextRequest++;
        else tally.repairedByCleanup++;
      }
    }
    reportScenario("crash", { runs: CRASH.runs, operations: tallies });
    return tallies;
  } finally {
    await stack.close();
    await wire.close();
  }
}

/** The operation's commands when nothing fails, on a fixture of its own. */
async function countCommands(stack: Stack, wire: WireProxy, operation: CrashOperation): Promise<number> {
  const prepared = await operation.prepare(stack.target, `${operation.name}-count`);
  wire.resetCount();
  const answer = await prepared.run();
  if (answer.status !== 200) throw new Error(`${operation.name} answered ${answer.status} without a crash`);
  return wire.commands;
}

/** Runs the operation with the kill armed at command k; restarts the server. False when it finished first. */
async function runUntilKilled(
  stack: Stack,
  wire: WireProxy,
  prepared: Prepared,
  k: number,
): Promise<boolean> {
  const server = stack.server;
  let killed = false;
  wire.tripAtCommand(k, () => {
    killed = true;
    process.kill(server.pid, "SIGKILL");
  });
  await prepared.run();
  if (killed) await server.process.exited;
  wire.release();
  if (killed) await stack.startServer();
  return killed;
}

/** How long after the crash the judged `auth.cleanup()` runs (the longest in-flight window, and a minute). */
const CLEANUP_LATER_MS = 11 * 60_000;

type Judgement =
  | { kind: "whole" | "repaired-by-next-request" | "repaired-by-cleanup" }
  | { kind: "broken"; problems: string[]; doctorFixRepairs: boolean };

/** Findings are database-wide: a run answers only for what it added (an earlier broken run stays counted there). */
async function findingCounts(stack: Stack): Promise<Map<string, number>> {
  return new Map((await stack.findings()).map((finding) => [finding.check, finding.count]));
}

async function judge(stack: Stack, prepared: Prepared, before: Map<string, number>): Promise<Judgement> {
  const problems = async () => [
    ...(await stack.findings())
      .filter((finding) => finding.count > (before.get(finding.check) ?? 0))
      .map((finding) => `${finding.check}: ${finding.count - (before.get(finding.check) ?? 0)}`),
    ...(await prepared.halfDone(stack.db)),
  ];
  if ((await problems()).length === 0) return { kind: "whole" };
  await prepared.retry();
  if ((await problems()).length === 0) return { kind: "repaired-by-next-request" };
  const auth = createAuth({
    database: { uri: stack.database.uri, dbName: DB_NAME },
    secret: SERVER_SECRET,
    baseURL: stack.server.origin,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    // The periodic cleanup, as it runs after the crash: past the windows in which it leaves work
    // alone that may still be in flight (events: 60 s, features/events repair.ts; an invitation's
    // claim: 10 minutes) — work that young is indistinguishable from a request still running.
    clock: () => new Date(Date.now() + CLEANUP_LATER_MS),
  });
  try {
    await auth.cleanup();
  } finally {
    await auth.close();
  }
  const left = await problems();
  if (left.length === 0) return { kind: "repaired-by-cleanup" };
  // Not what the issue accepts, but worth knowing (and it keeps the next runs' baseline small).
  await checkDataInvariants(stack.db, { fix: true });
  return { kind: "broken", problems: left, doctorFixRepairs: (await problems()).length === 0 };
}
