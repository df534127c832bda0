/**
 * `pnpm bench`: throughput of the standalone server against its ceilings on this machine, and the
 * targets (cookie-cached get-session ≥ 75% of the floor server; sign-in and sign-up ≥ 85% of bare
 * scrypt; server peak RSS ≤ 150 MB), then RSS over 500,000 requests (bench/rss-growth.ts; BENCH_RSS=0
 * leaves it out), the side-by-side with Better Auth (bench/versus.ts; BENCH_VERSUS=0 leaves it out)
 * and the scale table (bench/scale.ts; BENCH_SCALE=0 leaves it out). A measurement, not a test:
 * prints PASS/MISS and exits 0 either way.
 *
 * Traffic goes to 127.0.0.1 only, each load run is bounded (BENCH_SECONDS, default 5 s, 10 connections;
 * the runs that hash a password BENCH_HASH_SECONDS, default 15 s).
 * The servers are child processes running the bundle exactly as `pnpm serve` runs it (node flags and
 * environment from server/build.ts) so that their peak RSS (VmHWM) is theirs alone; rate limiting is
 * off in them (it would answer 429), except in the rate-limit burst scenario (burst.ts;
 * `BENCH_ONLY=burst` runs it alone, `BENCH_BURST` sets its size, default 200). The machine's load average is printed with the results: with
 * two cores, autocannon and the server share them, and any other work shows in the numbers.
 *
 * Each compared pair runs BENCH_ROUNDS times (default 3), interleaved, and the table shows the median
 * with the range: single runs varied by ±30% on this machine. The cookie-cache comparison pins the
 * servers and the load generator to different CPUs (processes.ts). CPU time per request (from
 * /proc) is printed next to each rate: it explains where a ratio comes from.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { buildServer } from "../packages/auth-core/src/server/build.ts";
// bench/ is not a workspace package: dev-db and the mongodb driver come through files that resolve them.
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { dropDatabase } from "../tests/e2e/databases.ts";
import { withDbName } from "../tests/e2e/serve-process.ts";
import { measureBurst, printBurst } from "./burst.ts";
import { type CeilingServer, measureScrypt, startBareServer, startFloorServer } from "./ceilings.ts";
import { type BenchConfigs, writeBenchConfigs } from "./configs.ts";
import { measureLoad, uniqueSignUpBody } from "./load.ts";
import { createPinning, findDatabasePid, type Pinning } from "./processes.ts";
import { printResults, type Results, type Series } from "./report.ts";
import { measureRssGrowth, printRssGrowth } from "./rss-growth.ts";
import { runScaleBench } from "./scale.ts";
import { type BundledServer, spawnBundledServer } from "./serve-bundle.ts";
import { HASH_SECONDS, positiveInteger } from "./settings.ts";
import { runVersusSection } from "./versus.ts";

const SECONDS = positiveInteger("BENCH_SECONDS", 5);
const ROUNDS = positiveInteger("BENCH_ROUNDS", 3);
const CONNECTIONS = 10;
const BURST = positiveInteger("BENCH_BURST", 200);
const BURST_ROUNDS = 5;
/** `BENCH_ONLY=burst`: only the rate-limit burst scenario. */
const ONLY_BURST = process.env.BENCH_ONLY === "burst";
const SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
const USER = { email: "bench-user@example.com", password: "bench-password-1", name: "Bench" };
const CREDENTIALS = { email: USER.email, password: USER.password };
/**
 * The sign-in load spreads over one account per connection, as a flood of users would: the
 * per-account throttle (features/sign-in-throttle) counts attempts in flight, so 10 parallel
 * sign-ins to one account would meet its delay after the 5th and measure 429s.
 */
const SIGN_IN_USERS = Array.from({ length: CONNECTIONS }, (_, i) => ({
  email: `bench-sign-in-${i}@example.com`,
  password: USER.password,
  name: "Bench",
}));
let nextSignInUser = 0;
function nextSignInBody(): string {
  const user = SIGN_IN_USERS[nextSignInUser++ % SIGN_IN_USERS.length]!;
  return JSON.stringify({ email: user.email, password: user.password });
}

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

/** The measurements of one scenario, one per round. */
function series(): Series {
  return [];
}

/**
 * Each ceiling is measured right after the scenario it is compared with, round after round: the
 * machine may be shared, and adjacent runs see the same background load.
 */
async function benchDatabaseServer(server: BenchServer, databasePid: number | undefined) {
  await post(`${server.api}/sign-up/email`, USER);
  for (const user of SIGN_IN_USERS) await post(`${server.api}/sign-up/email`, user);
  const cookie = cookieHeaderOf(await post(`${server.api}/sign-in/email`, CREDENTIALS));
  const sessionJson = await readSessionJson(server.api, cookie);
  const watch = { server: server.process.child.pid, database: databasePid };
  const common = { origin: server.origin, seconds: SECONDS, connections: CONNECTIONS, watch };
  const sessionDb = await measureLoad({
    ...common,
    name: "get-session (database)",
    method: "GET",
    path: "/api/auth/get-session",
    headers: { cookie },
  });
  const signIn = series();
  const bareScrypt = series();
  for (let round = 0; round < ROUNDS; round++) {
    signIn.push(
      await measureLoad({
        ...common,
        seconds: HASH_SECONDS,
        name: "sign-in/email",
        method: "POST",
        path: "/api/auth/sign-in/email",
        makeBody: nextSignInBody,
      }),
    );
    bareScrypt.push(await measureScrypt(HASH_SECONDS, CONNECTIONS));
  }
  const signUp = await measureLoad({
    ...common,
    seconds: HASH_SECONDS,
    name: "sign-up/email",
    method: "POST",
    path: "/api/auth/sign-up/email",
    makeBody: uniqueSignUpBody,
  });
  return { sessionDb, signIn, bareScrypt, signUp, sessionJson };
}

/** `name=value` pairs of a Cookie header, by name. */
function cookieNames(cookie: string): { sessionToken: string; sessionData: string } {
  const names = cookie.split("; ").map((pair) => pair.slice(0, pair.indexOf("=")));
  const sessionToken = names.find((name) => name.endsWith("session_token"));
  const sessionData = names.find((name) => name.endsWith("session_data"));
  if (!sessionToken || !sessionData) throw new Error(`cookie cache is not on in the bench server: ${cookie}`);
  return { sessionToken, sessionData };
}

async function benchCookieCacheServer(server: BenchServer, sessionJson: string, pinning: Pinning) {
  // The user exists already (same database); signing in here sets both cookies.
  const cookie = cookieHeaderOf(await post(`${server.api}/sign-in/email`, CREDENTIALS));
  await readSessionJson(server.api, cookie);
  const ceilings: CeilingServer[] = [];
  try {
    const floor = await startFloorServer(SECRET, cookieNames(cookie));
    ceilings.push(floor);
    const bare = await startBareServer(sessionJson);
    ceilings.push(bare);
    // The floor must answer what Tessera answers, or it measures something else.
    await readSessionJson(`${floor.origin}/api/auth`, cookie);
    for (const pid of [server.process.child.pid, floor.child.pid, bare.child.pid]) pinning.pinServer(pid);
    pinning.pinLoad();
    const common = { seconds: SECONDS, connections: CONNECTIONS, method: "GET" as const };
    const path = "/api/auth/get-session";
    const sessionCache = series();
    const floorServer = series();
    const bareServer = series();
    for (let round = 0; round < ROUNDS; round++) {
      const watch = { server: server.process.child.pid };
      sessionCache.push(
        await measureLoad({
          ...common,
          origin: server.origin,
          name: "get-session (cookie cache)",
          path,
          headers: { cookie },
          watch,
        }),
      );
      floorServer.push(
        await measureLoad({
          ...common,
          origin: floor.origin,
          name: "floor: node:http + cache check",
          path,
          headers: { cookie },
          watch: { server: floor.child.pid },
        }),
      );
      bareServer.push(
        await measureLoad({
          ...common,
          origin: bare.origin,
          name: "bare node:http (same JSON)",
          path,
          watch: { server: bare.child.pid },
        }),
      );
    }
    return { sessionCache, floorServer, bareServer };
  } finally {
    pinning.release();
    await Promise.all(ceilings.map((ceiling) => ceiling.stop()));
  }
}

async function runBench(mongoUri: string, configs: BenchConfigs, pinning: Pinning): Promise<Results> {
  const databasePid = findDatabasePid(mongoUri);
  const plain = await startBenchServer(mongoUri, configs.database);
  const { sessionJson, ...first } = await benchDatabaseServer(plain, databasePid);
  const database = await stopBenchServer(plain);
  const cached = await startBenchServer(mongoUri, configs.cookieCache);
  const second = await benchCookieCacheServer(cached, sessionJson, pinning);
  const cookieCache = await stopBenchServer(cached);
  return { ...first, ...second, peakRss: { database, cookieCache } };
}

async function runBurst(mongoUri: string, configs: BenchConfigs) {
  const server = await startBenchServer(mongoUri, configs.rateLimited);
  try {
    // The default rule (100 per 10 s) on a path that needs no database beyond the limiter.
    return await measureBurst({
      origin: server.origin,
      burst: BURST,
      rounds: BURST_ROUNDS,
      path: "/api/auth/get-session",
    });
  } finally {
    await stopBenchServer(server);
  }
}

async function main(): Promise<void> {
  const database = await startDevDatabase({ log: (line: string) => console.error(line) });
  const dbName = `bench_${randomBytes(6).toString("hex")}`;
  const mongoUri = withDbName(database.uri, dbName);
  const pinning = createPinning();
  let configs: BenchConfigs | null = null;
  try {
    await buildServer();
    configs = await writeBenchConfigs();
    console.error(
      `bench: ${SECONDS} s per run (${HASH_SECONDS} s when hashing), ${ROUNDS} rounds, ${CONNECTIONS} connections, database ${dbName}; ${pinning.description}`,
    );
    const results = ONLY_BURST ? null : await runBench(mongoUri, configs, pinning);
    const burst = await runBurst(mongoUri, configs);
    console.log(
      `\ndatabase: ${database.description}; ${SECONDS} s per run (${HASH_SECONDS} s when hashing), ${ROUNDS} rounds, ${CONNECTIONS} connections; ${pinning.description}`,
    );
    console.log(
      `load average at the end (1/5/15 min): ${loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
    if (results) printResults(results);
    printBurst(burst);
    if (!ONLY_BURST && process.env.BENCH_RSS !== "0")
      printRssGrowth(await measureRssGrowth(mongoUri, configs.cookieCache));
    // Tessera and Better Auth side by side (bench/versus.ts).
    if (!ONLY_BURST && process.env.BENCH_VERSUS !== "0") await runVersusSection(database.uri);
    if (!ONLY_BURST && process.env.BENCH_SCALE !== "0") await runScaleBench();
  } finally {
    pinning.release();
    for (const server of started) server.kill();
    await dropDatabase(database.uri, dbName).catch(() => {});
    await configs?.remove();
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error("bench failed:", error);
    process.exit(1);
  },
);
