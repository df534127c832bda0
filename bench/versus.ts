/**
 * `pnpm bench:versus` (also a section of `pnpm bench`; BENCH_VERSUS=0 leaves it out): Tessera and
 * Better Auth 1.7 side by side, on the same database server (two database names), in the same run:
 * each scenario runs against both standalone servers, interleaved (which product goes first
 * alternates by round), BENCH_VERSUS_ROUNDS times (default 2), BENCH_SECONDS each (default 5),
 * with BENCH_VERSUS_CONNECTIONS connections (default 50) for the two get-sessions and
 * BENCH_VERSUS_HEAVY_CONNECTIONS (default 4) for the scenarios that cost tens of milliseconds; sign-in
 * and sign-up run BENCH_HASH_SECONDS each (default 15; bench/settings.ts), BENCH_VERSUS_HASH_ROUNDS
 * times (default 4). Targets: every scenario
 * without a password hash at least ×2 Tessera's rate, sign-in and sign-up ahead at equal hash
 * cost. Passkey sign-in and code sign-in (versus-passwordless.ts) run after them on the same pair,
 * target ×2, and the SSO sign-in through OIDC (versus-sso.ts, target ×2). BENCH_VERSUS_ONLY picks
 * groups, comma-separated (default all): reads, passwords, passkey, code, sso, cookie-cache; e.g. `BENCH_VERSUS_ONLY=passkey,code pnpm bench:versus` runs the two
 * passwordless rows alone, without the organization seed. Prints a table with PASS/MISS and the
 * servers' peak RSS, writes .reports/bench-versus.json; a measurement, not a test: exits 0 either way.
 *
 * Fairness (docs/scale.md "Side by side with Better Auth"): both servers are node:http processes
 * started with the same node flags and environment (server/build.ts), rate limiting off, the same
 * cookie-cache lifetime, the same scrypt parameters (bench/versus/better-auth-server.ts), the same
 * data seeded through each product's own HTTP API, and the same requests with the same Origin.
 * The database-read scenarios run on servers with the cookie cache off, the cookie-cached
 * get-session on a second pair with it on. All reads run before any sign-in or sign-up load, so
 * both databases hold exactly the seed while they are read.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer } from "../packages/auth-core/src/server/build.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { dropDatabase } from "../tests/e2e/databases.ts";
import { REPO_ROOT, withDbName } from "../tests/e2e/serve-process.ts";
import { measureLoad, uniqueSignUpBody } from "./load.ts";
import { createPinning, findDatabasePid, mainThreadOf } from "./processes.ts";
import { HASH_SECONDS, positiveInteger } from "./settings.ts";
import { type BenchIdp, startBenchIdp } from "./sso-idp.ts";
import { buildBetterAuthServer } from "./versus/build.ts";
import { addBystanders } from "./versus/database.ts";
import { runPasswordless } from "./versus-passwordless.ts";
import {
  PRODUCTS,
  type Product,
  printVersus,
  type Target,
  type VersusResults,
  writeVersusReport,
} from "./versus-report.ts";
import {
  type Databases,
  emailOf,
  MEMBERS,
  PASSWORD,
  type ProductServer,
  request,
  type Seeded,
  seed,
  signIn,
  startServer,
  stopServer,
  writeTesseraConfigs,
} from "./versus-servers.ts";
import { runSso, SSO_CLIENTS } from "./versus-sso.ts";

const SECONDS = positiveInteger("BENCH_SECONDS", 5);
const GROUPS = ["reads", "passwords", "passkey", "code", "sso", "cookie-cache"] as const;
type Group = (typeof GROUPS)[number];

/** The groups BENCH_VERSUS_ONLY names (all when unset); an unknown name is a mistake, not a silent skip. */
function selectedGroups(): Set<Group> {
  const raw = process.env.BENCH_VERSUS_ONLY?.trim();
  if (!raw) return new Set(GROUPS);
  const names = raw.split(",").map((name) => name.trim());
  for (const name of names)
    if (!(GROUPS as readonly string[]).includes(name))
      throw new Error(`BENCH_VERSUS_ONLY: "${name}" is none of ${GROUPS.join(", ")}`);
  return new Set(names as Group[]);
}
const ROUNDS = positiveInteger("BENCH_VERSUS_ROUNDS", 2);
/** Users added straight to both databases before the pair rows (versus/database.ts addBystanders); 0 by default. */
const BYSTANDERS = Number(process.env.BENCH_VERSUS_BYSTANDERS ?? 0);
/**
 * Rounds of sign-in and sign-up. Both products spend ~95% of a sign-in in the same scrypt call, so
 * the gap being measured is a few percent, while one 15 s run against another of the same server
 * differed by up to 25% (2026-11-26 19:27: Tessera's sign-in 6.07 then 7.8 requests/s, Better Auth's
 * sign-up 6.6 then 8.0): four rounds, each product first in two of them, and the median.
 */
const HASH_ROUNDS = positiveInteger("BENCH_VERSUS_HASH_ROUNDS", 4);
const CONNECTIONS = positiveInteger("BENCH_VERSUS_CONNECTIONS", 50);
/**
 * Connections of the scenarios that cost tens of milliseconds or more (organization reads, admin
 * list, password hashing): with 50 a request waited longer than a run lasted (Little's law: the
 * wait is connections ÷ rate), so few finished and the slower product's rate was under-counted
 * most. Four keep both cores busy.
 */
const HEAVY_CONNECTIONS = positiveInteger("BENCH_VERSUS_HEAVY_CONNECTIONS", 4);
/**
 * Seconds of each sign-in and sign-up run: at ~8 hashes a second, a 5 s run counted ~40 requests,
 * and one request more or less moved the ratio by ±0.03 — as much as the gap being measured.
 */
/** The page size of list-members and admin list-users. */
const PAGE = 50;

interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: (seeded: Seeded) => string;
  /** Reads carry the owner's cookie. */
  signedIn: boolean;
  makeBody?: () => string;
  /** Checked once on each server before the load: a wrong answer would measure nothing. */
  check?: (json: never) => boolean;
  target: Target;
  connections: number;
  /** The run's length when it is not BENCH_SECONDS. */
  seconds?: number;
}

function read(
  name: string,
  path: Scenario["path"],
  check: Scenario["check"],
  connections = HEAVY_CONNECTIONS,
): Scenario {
  return { name, method: "GET", path, signedIn: true, check, target: "×2", connections };
}

const READS: Scenario[] = [
  read(
    "get-session (database)",
    () => "/get-session",
    (json: { user?: { email?: string } }) => json.user?.email === emailOf(0),
    CONNECTIONS,
  ),
  read(
    `get-full-organization (${MEMBERS} members)`,
    ({ organizationId }) => `/organization/get-full-organization?organizationId=${organizationId}`,
    (json: { members?: unknown[] }) => json.members?.length === MEMBERS,
  ),
  read(
    `list-members (page of ${PAGE})`,
    ({ organizationId }) => `/organization/list-members?organizationId=${organizationId}&limit=${PAGE}`,
    (json: { members?: unknown[] }) => json.members?.length === PAGE,
  ),
  read(
    `admin list-users (page of ${PAGE})`,
    () => `/admin/list-users?limit=${PAGE}`,
    (json: { users?: unknown[] }) => json.users?.length === PAGE,
  ),
];

const COOKIE_CACHED = read("get-session (cookie cache)", () => "/get-session", READS[0]!.check, CONNECTIONS);

/** Sign-ins spread over the 100 seeded accounts: Tessera's per-account throttle counts attempts in flight. */
let nextSignIn = 0;
const signInBody = () => JSON.stringify({ email: emailOf(nextSignIn++ % MEMBERS), password: PASSWORD });

const WRITES: Scenario[] = [
  {
    name: "sign-in/email",
    method: "POST",
    path: () => "/sign-in/email",
    signedIn: false,
    makeBody: signInBody,
    target: "ahead",
    connections: HEAVY_CONNECTIONS,
    seconds: HASH_SECONDS,
  },
  {
    name: "sign-up/email",
    method: "POST",
    path: () => "/sign-up/email",
    signedIn: false,
    makeBody: uniqueSignUpBody,
    target: "ahead",
    connections: HEAVY_CONNECTIONS,
    seconds: HASH_SECONDS,
  },
];

/**
 * Each scenario's rounds, the products interleaved (the first one alternates by round). `seeded`
 * holds each server's seed; a scenario with a check is checked on both servers first.
 */
async function runScenarios(
  scenarios: Scenario[],
  seeded: Map<ProductServer, Seeded>,
  results: VersusResults,
  watch: { database?: number },
  rounds = ROUNDS,
): Promise<void> {
  const servers = [...seeded.keys()];
  for (const scenario of scenarios) {
    if (!scenario.check) continue;
    for (const [server, seed] of seeded) {
      const response = await request(server, scenario.path(seed), { cookie: seed.owner });
      const json: never = (await response.json()) as never;
      if (!scenario.check(json))
        throw new Error(`${server.product} ${scenario.name} answered ${JSON.stringify(json).slice(0, 300)}`);
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const seed = seeded.get(server)!;
        const measurement = await measureLoad({
          name: scenario.name,
          origin: server.origin,
          method: scenario.method,
          path: `/api/auth${scenario.path(seed)}`,
          headers: { origin: server.origin, ...(scenario.signedIn ? { cookie: seed.owner } : {}) },
          makeBody: scenario.makeBody,
          seconds: scenario.seconds ?? SECONDS,
          connections: scenario.connections,
          watch: { ...watchOf(server), ...watch },
        });
        results.scenarios[scenario.name] ??= {
          target: scenario.target,
          connections: scenario.connections,
          tessera: [],
          betterAuth: [],
        };
        results.scenarios[scenario.name]![server.product].push(measurement);
      }
    }
  }
}

/** The server process and its main thread (the CPU figures' columns). */
function watchOf(server: ProductServer) {
  return { server: server.process.child.pid, main: mainThreadOf(server.process.child.pid) };
}

async function startPair(databases: Databases, cookieCache: boolean, running: ProductServer[]) {
  const servers = await Promise.all(PRODUCTS.map((product) => startServer(product, databases, cookieCache)));
  running.push(...servers);
  return servers;
}

async function stopPair(servers: ProductServer[], results: VersusResults, phase: "database" | "cookieCache") {
  for (const server of servers) results.peakRss[server.product][phase] = await stopServer(server);
}

/**
 * The side-by-side section on the database server at `databaseUri` (its own two databases,
 * dropped afterwards). Tessera's bundle must have been built (`buildServer`).
 */
export async function runVersusBench(databaseUri: string): Promise<VersusResults> {
  await buildBetterAuthServer();
  const suffix = randomBytes(4).toString("hex");
  const names: Record<Product, string> = {
    tessera: `versus_tessera_${suffix}`,
    betterAuth: `versus_better_auth_${suffix}`,
  };
  const dir = await mkdtemp(join(tmpdir(), "tessera-versus-"));
  const running: ProductServer[] = [];
  const pinning = createPinning();
  const watch = { database: findDatabasePid(databaseUri) };
  const groups = selectedGroups();
  let idp: BenchIdp | null = null;
  try {
    if (groups.has("sso")) idp = await startBenchIdp(Object.values(SSO_CLIENTS));
    const databases: Databases = {
      uris: {
        tessera: withDbName(databaseUri, names.tessera),
        betterAuth: withDbName(databaseUri, names.betterAuth),
      },
      tesseraConfigs: await writeTesseraConfigs(dir, idp !== null),
      ...(idp ? { idpOrigin: idp.issuer } : {}),
    };
    const results: VersusResults = {
      seconds: SECONDS,
      hashSeconds: HASH_SECONDS,
      rounds: ROUNDS,
      hashRounds: HASH_ROUNDS,
      pinning: pinning.description,
      scenarios: {},
      peakRss: { tessera: {}, betterAuth: {} },
    };
    console.error(
      `versus: ${SECONDS} s per run, ${ROUNDS} rounds, ${CONNECTIONS}/${HEAVY_CONNECTIONS} connections, databases ${names.tessera} and ${names.betterAuth}`,
    );
    const databaseServers = await startPair(databases, false, running);
    const seeded = new Map<ProductServer, Seeded>();
    const needsSeed = groups.has("reads") || groups.has("passwords") || groups.has("cookie-cache");
    for (const server of needsSeed ? databaseServers : []) {
      const started = performance.now();
      seeded.set(server, await seed(server));
      console.error(
        `versus: seeded ${server.product} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    // Reads first: both databases hold exactly the seed while they are read.
    if (groups.has("reads")) await runScenarios(READS, seeded, results, watch);
    if (groups.has("passwords")) await runScenarios(WRITES, seeded, results, watch, HASH_ROUNDS);
    const flows = { passkey: groups.has("passkey"), code: groups.has("code") };
    if (BYSTANDERS > 0 && (flows.passkey || flows.code || idp)) {
      for (const server of databaseServers) await addBystanders(server.uri, server.product, BYSTANDERS);
      console.error(`versus: ${BYSTANDERS} bystander users added to each database (BENCH_VERSUS_BYSTANDERS)`);
    }
    if (flows.passkey || flows.code)
      await runPasswordless(
        databaseServers,
        flows,
        { seconds: SECONDS, rounds: ROUNDS, watch },
        results,
        watchOf,
      );
    if (idp)
      await runSso(databaseServers, idp, { seconds: SECONDS, rounds: ROUNDS, watch }, results, watchOf);
    await stopPair(databaseServers, results, "database");
    if (!groups.has("cookie-cache")) return results;
    const cachedServers = await startPair(databases, true, running);
    const cached = new Map<ProductServer, Seeded>();
    for (const [index, server] of cachedServers.entries()) {
      const owner = await signIn(server, 0);
      if (!/session_data=/.test(owner)) throw new Error(`${server.product}: no cookie cache in ${owner}`);
      cached.set(server, { owner, organizationId: seeded.get(databaseServers[index]!)!.organizationId });
    }
    // As in run.ts's cookie-cache comparison: servers on one CPU, the load generator on the other.
    for (const server of cachedServers) pinning.pinServer(server.process.child.pid);
    pinning.pinLoad();
    await runScenarios([COOKIE_CACHED], cached, results, {});
    pinning.release();
    await stopPair(cachedServers, results, "cookieCache");
    return results;
  } finally {
    await idp?.close();
    pinning.release();
    for (const server of running) server.process.kill();
    await rm(dir, { recursive: true, force: true });
    for (const name of Object.values(names)) await dropDatabase(databaseUri, name).catch(() => {});
  }
}

/** The section of `pnpm bench` (and all of `pnpm bench:versus`): runs, prints, writes the JSON report. */
export async function runVersusSection(databaseUri: string): Promise<void> {
  const results = await runVersusBench(databaseUri);
  printVersus(results);
  const report = join(REPO_ROOT, ".reports", "bench-versus.json");
  await writeVersusReport(results, report);
  console.log(`figures written to ${report}`);
}

async function main(): Promise<void> {
  const database = await startDevDatabase({ log: (line: string) => console.error(line) });
  try {
    await buildServer();
    console.log(`database: ${database.description}`);
    await runVersusSection(database.uri);
  } finally {
    await database.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("bench:versus failed:", error);
      process.exit(1);
    },
  );
}
