/**
 * `pnpm bench`: throughput of the standalone server against its ceilings on this machine, and the
 * targets (cookie-cached get-session ≥ 70% of a bare node:http server; sign-in ≥ 90% of bare scrypt;
 * server peak RSS ≤ 150 MB). A measurement, not a test: prints PASS/MISS and exits 0 either way.
 *
 * Traffic goes to 127.0.0.1 only, each load run is bounded (BENCH_SECONDS, default 5 s, 10 connections).
 * The servers are child processes running the bundle exactly as `pnpm serve` runs it (node flags and
 * environment from server/build.ts) so that their peak RSS (VmHWM) is theirs alone; rate limiting is
 * off in them (it would answer 429). The machine's load average is printed with the results: with
 * two cores, autocannon and the server share them, and any other work shows in the numbers.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { buildServer } from "../packages/auth-core/src/server/build.ts";
// bench/ is not a workspace package: dev-db and the mongodb driver come through files that resolve them.
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { dropDatabase } from "../tests/e2e/databases.ts";
import { withDbName } from "../tests/e2e/serve-process.ts";
import { measureScrypt, startBareServer } from "./ceilings.ts";
import { type BenchConfigs, writeBenchConfigs } from "./configs.ts";
import { type Measurement, measureLoad, uniqueSignUpBody } from "./load.ts";
import { type BundledServer, spawnBundledServer } from "./serve-bundle.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? "5");
const CONNECTIONS = 10;
const SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
const USER = { email: "bench-user@example.com", password: "bench-password-1", name: "Bench" };
const CREDENTIALS = { email: USER.email, password: USER.password };
const MB = 1024 * 1024;

interface BenchServer {
  process: BundledServer;
  /** http://127.0.0.1:<port> */
  origin: string;
  api: string;
}

/** Killed on the way out if the bench fails half-way. */
const started: BundledServer[] = [];

async function startBenchServer(mongoUri: string, configPath: string): Promise<BenchServer> {
  const process = spawnBundledServer({
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    MONGODB_URI: mongoUri,
    TESSERA_SECRET: SECRET,
    TESSERA_CONFIG: configPath,
  });
  started.push(process);
  const port = new URL(await process.listening).port;
  const origin = `http://127.0.0.1:${port}`;
  return { process, origin, api: `${origin}/api/auth` };
}

async function stopBenchServer(server: BenchServer): Promise<number> {
  const peak = await readPeakRss(server.process.child.pid);
  server.process.child.kill("SIGTERM");
  await server.process.exited;
  return peak;
}

/** VmHWM: the process's peak resident set since it started (Linux). */
async function readPeakRss(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? Number.NaN);
  return kb * 1024;
}

async function post(url: string, body: unknown): Promise<Response> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

function cookieHeaderOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** A signed-in get-session must answer the user, not null: a 200 null would measure nothing. */
async function readSessionJson(api: string, cookie: string): Promise<string> {
  const text = await (await fetch(`${api}/get-session`, { headers: { cookie } })).text();
  if (!text.includes(USER.email)) throw new Error(`get-session did not return the session: ${text}`);
  return text;
}

interface Results {
  sessionDb: Measurement;
  sessionCache: Measurement;
  signIn: Measurement;
  signUp: Measurement;
  bareServer: Measurement;
  bareScrypt: Measurement;
  peakRss: { database: number; cookieCache: number };
}

/**
 * Each ceiling is measured right after the scenario it is compared with: the machine may be shared,
 * and adjacent runs see the same background load.
 */
async function benchDatabaseServer(server: BenchServer) {
  await post(`${server.api}/sign-up/email`, USER);
  const cookie = cookieHeaderOf(await post(`${server.api}/sign-in/email`, CREDENTIALS));
  const sessionJson = await readSessionJson(server.api, cookie);
  const common = { origin: server.origin, seconds: SECONDS, connections: CONNECTIONS };
  const sessionDb = await measureLoad({
    ...common,
    name: "get-session (database)",
    method: "GET",
    path: "/api/auth/get-session",
    headers: { cookie },
  });
  const signIn = await measureLoad({
    ...common,
    name: "sign-in/email",
    method: "POST",
    path: "/api/auth/sign-in/email",
    body: JSON.stringify(CREDENTIALS),
  });
  const bareScrypt = await measureScrypt(SECONDS, CONNECTIONS);
  const signUp = await measureLoad({
    ...common,
    name: "sign-up/email",
    method: "POST",
    path: "/api/auth/sign-up/email",
    makeBody: uniqueSignUpBody,
  });
  return { sessionDb, signIn, bareScrypt, signUp, sessionJson };
}

async function benchCookieCacheServer(server: BenchServer, sessionJson: string) {
  // The user exists already (same database); signing in here sets both cookies.
  const cookie = cookieHeaderOf(await post(`${server.api}/sign-in/email`, CREDENTIALS));
  if (!cookie.includes("session_data")) throw new Error("cookie cache is not on in the bench server");
  await readSessionJson(server.api, cookie);
  const common = { seconds: SECONDS, connections: CONNECTIONS, method: "GET" as const };
  const sessionCache = await measureLoad({
    ...common,
    origin: server.origin,
    name: "get-session (cookie cache)",
    path: "/api/auth/get-session",
    headers: { cookie },
  });
  const bare = await startBareServer(sessionJson);
  try {
    const bareServer = await measureLoad({
      ...common,
      origin: bare.origin,
      name: "bare node:http (same JSON)",
      path: "/api/auth/get-session",
    });
    return { sessionCache, bareServer };
  } finally {
    await bare.stop();
  }
}

async function runBench(mongoUri: string, configs: BenchConfigs): Promise<Results> {
  const plain = await startBenchServer(mongoUri, configs.database);
  const { sessionJson, ...first } = await benchDatabaseServer(plain);
  const database = await stopBenchServer(plain);
  const cached = await startBenchServer(mongoUri, configs.cookieCache);
  const second = await benchCookieCacheServer(cached, sessionJson);
  const cookieCache = await stopBenchServer(cached);
  return { ...first, ...second, peakRss: { database, cookieCache } };
}

async function main(): Promise<void> {
  const database = await startDevDatabase({ log: (line: string) => console.error(line) });
  const dbName = `bench_${randomBytes(6).toString("hex")}`;
  const mongoUri = withDbName(database.uri, dbName);
  let configs: BenchConfigs | null = null;
  try {
    await buildServer();
    configs = await writeBenchConfigs();
    console.error(`bench: ${SECONDS} s per run, ${CONNECTIONS} connections, database ${dbName}`);
    const results = await runBench(mongoUri, configs);
    const { sessionDb, sessionCache, signIn, signUp, bareServer, bareScrypt, peakRss } = results;
    console.log(`\ndatabase: ${database.description}; ${SECONDS} s per run, ${CONNECTIONS} connections`);
    console.log(
      `load average at the end (1/5/15 min): ${loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
    printTable([sessionDb, sessionCache, signIn, signUp, bareServer, bareScrypt]);
    printTargets(results);
    console.log(
      `server peak RSS: ${(peakRss.database / MB).toFixed(1)} MB (database sessions; ran sign-in and sign-up), ` +
        `${(peakRss.cookieCache / MB).toFixed(1)} MB (cookie cache)`,
    );
  } finally {
    for (const server of started) server.kill();
    await dropDatabase(database.uri, dbName).catch(() => {});
    await configs?.remove();
    await database.stop();
  }
}

function printTable(rows: Measurement[]): void {
  const pad = (text: string, width: number) => text.padEnd(width);
  const num = (value: number, digits: number) => value.toFixed(digits).padStart(10);
  console.log(
    `\n${pad("scenario", 30)}${"req/s".padStart(10)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}${"failed".padStart(10)}`,
  );
  for (const row of rows) {
    console.log(
      `${pad(row.name, 30)}${num(row.rate, 1)}${num(row.p50, 1)}${num(row.p99, 1)}${String(row.failures).padStart(10)}`,
    );
  }
}

function printTargets(results: Results): void {
  const sessionRatio = results.sessionCache.rate / results.bareServer.rate;
  const signInRatio = results.signIn.rate / results.bareScrypt.rate;
  const peak = Math.max(results.peakRss.database, results.peakRss.cookieCache);
  const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
  console.log("\ntarget                                        value      target   result");
  console.log(
    `cookie-cached get-session / bare server   ${(sessionRatio * 100).toFixed(1).padStart(8)} %   ≥ 70 %    ${verdict(sessionRatio >= 0.7)}`,
  );
  console.log(
    `sign-in / bare scrypt                     ${(signInRatio * 100).toFixed(1).padStart(8)} %   ≥ 90 %    ${verdict(signInRatio >= 0.9)}`,
  );
  console.log(
    `server peak RSS (VmHWM)                   ${(peak / MB).toFixed(1).padStart(7)} MB   ≤ 150 MB  ${verdict(peak <= 150 * MB)}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error("bench failed:", error);
    process.exit(1);
  },
);
