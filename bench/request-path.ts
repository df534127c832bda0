/**
 * `pnpm bench:request-path`: what the standalone server's second request path (server/node-bridge.ts:
 * the engine fed straight from node:http, no Fetch Request/Response per call) buys over serving the
 * same engine through `auth.handler`. Two child servers, identical but for that path, take a
 * cookie-cached get-session and a database get-session in alternating rounds; the table gives the
 * median rate and the server's CPU time per request. A measurement, not a test. 127.0.0.1 only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { loadavg } from "node:os";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { type Measurement, measureLoad } from "./load.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Child {
  process: ChildProcess;
  origin: string;
}

async function startChild(mode: "engine" | "fetch", uri: string, dbName: string): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/request-path-server.ts"], {
    env: { ...process.env, MODE: mode, MONGODB_URI: uri, DB_NAME: dbName },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const port = /listening (\d+)/.exec(line.toString())?.[1];
  if (!port) throw new Error(`the ${mode} server did not start: ${line}`);
  return { process: child, origin: `http://127.0.0.1:${port}` };
}

const database = await startDevDatabase({ log: () => {} });
const dbName = `bench_path_${randomBytes(4).toString("hex")}`;
const engine = await startChild("engine", database.uri, dbName);
const fetchPath = await startChild("fetch", database.uri, dbName);
try {
  const signUp = await fetch(`${engine.origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://127.0.0.1" },
    body: JSON.stringify({ email: "path@example.com", password: "a long bench password 1", name: "Bench" }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const cookies = signUp.headers.getSetCookie().map((line) => line.split(";")[0]);
  const cached = cookies.join("; ");
  const database_ = cookies.filter((cookie) => !cookie?.includes("session_data")).join("; ");
  const runs: Record<string, Measurement[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, child] of [
      ["engine", engine],
      ["fetch", fetchPath],
    ] as const) {
      for (const [kind, cookie] of [
        ["cached", cached],
        ["database", database_],
      ] as const) {
        const result = await measureLoad({
          name: `${kind} get-session via ${name}`,
          origin: child.origin,
          method: "GET",
          path: "/api/auth/get-session",
          headers: { cookie },
          seconds: SECONDS,
          connections: 10,
          watch: { server: child.process.pid },
        });
        runs[result.name] = [...(runs[result.name] ?? []), result];
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `\nrequest path, ${ROUNDS} rounds of ${SECONDS} s, medians; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log("| run | req/s | server CPU µs/request | failures |");
  console.log("|---|---|---|---|");
  for (const [name, series] of Object.entries(runs)) {
    const rate = median(series.map((m) => m.rate));
    const cpu = median(series.map((m) => (m.cpuMs.server ?? 0) * 1000));
    const failures = series.reduce((sum, m) => sum + m.failures, 0);
    console.log(`| ${name} | ${rate.toFixed(0)} | ${cpu.toFixed(1)} | ${failures} |`);
  }
} finally {
  engine.process.kill();
  fetchPath.process.kill();
  await database.stop();
}
