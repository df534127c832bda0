/**
 * The long-run memory check of `pnpm bench` (also alone: `pnpm bench:rss`): 500,000 requests
 * (BENCH_RSS_REQUESTS) against one standalone server — mostly cookie-cached and database
 * get-session, one update-user in twenty, no password hashing in the loop — and the server's resident
 * set (VmRSS) after the first 50,000 and at the end. Target: the end at most 1.1× the first sample
 * (no growth once warm), and the peak (VmHWM) at most 150 MB. `BENCH_RSS=0` leaves it out of
 * `pnpm bench`. A measurement, not a test: prints PASS/MISS and exits 0 either way.
 *
 * Traffic goes to 127.0.0.1 only, in chunks of 50,000 requests (autocannon `amount`, 10
 * connections); the run stops after the chunk that passes BENCH_RSS_SECONDS (default 600 s) and
 * then says it was cut short rather than judging growth over fewer requests.
 */
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { buildServer } from "../packages/auth-core/src/server/build.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { dropDatabase } from "../tests/e2e/databases.ts";
import { withDbName } from "../tests/e2e/serve-process.ts";
import { writeBenchConfigs } from "./configs.ts";
import { spawnBundledServer } from "./serve-bundle.ts";
import { positiveInteger } from "./settings.ts";

const SECRET = "bench-rss-secret-0123456789abcdef0123456789abcdef";
const CHUNK = 50_000;
const CONNECTIONS = 10;
const TARGET_GROWTH = 1.1;
const TARGET_PEAK_BYTES = 150 * 1024 * 1024;
const USER = { email: "bench-rss@example.com", password: "bench-rss-password-1", name: "Bench RSS" };

/** VmRSS (now) and VmHWM (peak) of a process, in bytes (Linux; NaN elsewhere). */
async function readMemory(pid: number | undefined): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = (field: string) =>
    Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024 };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * One cycle of twenty, the same on every connection: sixteen cookie-cached reads, three database
 * reads (no cache cookie), one update-user (a database write that re-signs the cache cookie; its
 * Origin is the server's base URL, as a browser's would be). Database work is kept to a fifth so
 * that 500,000 requests fit in about two minutes on a quiet machine.
 */
function mixedRequests(cookies: { cached: string; database: string }, origin: string): autocannon.Request[] {
  const cached: autocannon.Request = {
    method: "GET",
    path: "/api/auth/get-session",
    headers: { cookie: cookies.cached },
  };
  const database: autocannon.Request = {
    method: "GET",
    path: "/api/auth/get-session",
    headers: { cookie: cookies.database },
  };
  const update: autocannon.Request = {
    method: "POST",
    path: "/api/auth/update-user",
    headers: { cookie: cookies.database, origin, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench RSS updated" }),
  };
  const cycle: autocannon.Request[] = [];
  for (let index = 0; index < 20; index++) {
    cycle.push(index === 10 ? update : index % 6 === 3 ? database : cached);
  }
  return cycle;
}

function runChunk(url: string, requests: autocannon.Request[], amount: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, amount, requests, timeout: 10 });
}

async function signUp(api: string): Promise<{ cached: string; database: string }> {
  const response = await fetch(`${api}/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(USER),
  });
  if (!response.ok) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  const pairs = response.headers.getSetCookie().map((line) => line.split(";")[0]!);
  if (!pairs.some((pair) => pair.includes("session_data")))
    throw new Error(`the cookie cache is not on in the RSS bench server: ${pairs.join("; ")}`);
  return {
    cached: pairs.join("; "),
    database: pairs.filter((pair) => !pair.includes("session_data")).join("; "),
  };
}

export interface RssGrowthResult {
  requests: number;
  failures: number;
  seconds: number;
  /** VmRSS after each chunk (the first is the baseline after 50,000 requests). */
  samples: number[];
  peak: number;
  /** Fewer requests than asked: BENCH_RSS_SECONDS ran out. */
  cutShort: boolean;
}

/** Runs the scenario against a server it starts on `mongoUri` with `configPath` (cookie cache on, rate limit off). */
export async function measureRssGrowth(mongoUri: string, configPath: string): Promise<RssGrowthResult> {
  const total = positiveInteger("BENCH_RSS_REQUESTS", 500_000);
  const budgetMs = positiveInteger("BENCH_RSS_SECONDS", 600) * 1000;
  const server = spawnBundledServer({
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    MONGODB_URI: mongoUri,
    TESSERA_SECRET: SECRET,
    TESSERA_CONFIG: configPath,
  });
  try {
    const port = new URL(await server.listening).port;
    const origin = `http://127.0.0.1:${port}`;
    const cookies = await signUp(`${origin}/api/auth`);
    // The default base URL (no BASE_URL set) is http://localhost:<port>: the trusted origin.
    const requests = mixedRequests(cookies, `http://localhost:${port}`);
    const pid = server.child.pid;
    const samples: number[] = [];
    let done = 0;
    let failures = 0;
    const started = performance.now();
    while (done < total) {
      const amount = Math.min(CHUNK, total - done);
      const result = await runChunk(origin + "/api/auth/get-session", requests, amount);
      done += result.requests.total;
      failures += result.non2xx + result.errors + result.timeouts;
      samples.push((await readMemory(pid)).rss);
      if (result.requests.total === 0 || performance.now() - started > budgetMs) break;
    }
    const { peak } = await readMemory(pid);
    const seconds = (performance.now() - started) / 1000;
    return { requests: done, failures, seconds, samples, peak, cutShort: done < total };
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}

export function printRssGrowth(result: RssGrowthResult): void {
  const first = result.samples[0] ?? Number.NaN;
  const last = result.samples.at(-1) ?? Number.NaN;
  const ratio = last / first;
  const rate = result.requests / result.seconds;
  console.log(
    `\nRSS over ${result.requests.toLocaleString("en")} requests (${CONNECTIONS} connections, ${result.seconds.toFixed(0)} s, ${rate.toFixed(0)} req/s; 16 cached get-session, 3 database get-session, 1 update-user in 20; ${result.failures} failures; load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")})`,
  );
  console.log(`VmRSS after each ${CHUNK.toLocaleString("en")}: ${result.samples.map(mb).join(", ")} MB`);
  const verdict =
    result.cutShort || result.failures > 0 ? "not judged" : ratio <= TARGET_GROWTH ? "PASS" : "MISS";
  const why = result.cutShort
    ? " (cut short by BENCH_RSS_SECONDS)"
    : result.failures > 0
      ? " (failed requests)"
      : "";
  console.log(
    `RSS at the end ${mb(last)} MB vs after the first ${CHUNK.toLocaleString("en")} ${mb(first)} MB: ${ratio.toFixed(2)}× (target ≤ ${TARGET_GROWTH}×): ${verdict}${why}`,
  );
  console.log(
    `peak RSS ${mb(result.peak)} MB (target ≤ ${mb(TARGET_PEAK_BYTES)} MB): ${result.peak <= TARGET_PEAK_BYTES ? "PASS" : "MISS"}`,
  );
}

/** `pnpm bench:rss`: the scenario alone, on the embedded database. */
async function main(): Promise<void> {
  const database = await startDevDatabase({ log: (line: string) => console.error(line) });
  const dbName = `bench_rss_${Date.now().toString(36)}`;
  const configs = await writeBenchConfigs();
  try {
    await buildServer();
    printRssGrowth(await measureRssGrowth(withDbName(database.uri, dbName), configs.cookieCache));
  } finally {
    await dropDatabase(database.uri, dbName).catch(() => {});
    await configs.remove();
    await database.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("bench:rss failed:", error);
      process.exit(1);
    },
  );
}
