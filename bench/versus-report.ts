import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { dirname } from "node:path";
import type { Measurement } from "./load.ts";
import { CODE_SCENARIO, PASSKEY_SCENARIO } from "./versus-passwordless.ts";
import { SSO_SCENARIO } from "./versus-sso.ts";

/** The two products of bench/versus.ts, in the order they are started and listed. */
export const PRODUCTS = ["tessera", "betterAuth"] as const;
export type Product = (typeof PRODUCTS)[number];

/**
 * One round of one product, with the machine's 1-minute load average when it started (the pair
 * rows record it: on a shared machine the rate moves with the neighbours' load, the CPU a request
 * much less).
 */
type VersusMeasurement = Measurement & { loadAverage?: number };

/** A round's measurement with the 1-minute load average of the moment it starts. */
export async function withLoadAverage(run: Promise<Measurement>): Promise<VersusMeasurement> {
  const loadAverage = loadavg()[0]!;
  return { ...(await run), loadAverage };
}

/** "×2": Tessera's rate at least twice Better Auth's; "ahead": above it (password-hashing scenarios). */
export type Target = "×2" | "ahead";

export interface VersusResults {
  seconds: number;
  /** The length of the sign-in and sign-up runs. */
  hashSeconds: number;
  rounds: number;
  /** Rounds of sign-in and sign-up. */
  hashRounds: number;
  pinning: string;
  /** By scenario name, in the order they ran: one measurement per round and product. */
  scenarios: Record<string, { target: Target; connections: number } & Record<Product, VersusMeasurement[]>>;
  /** Peak RSS (bytes) of each product's server: the database pair (all but the cookie cache) and the cookie-cache pair. */
  peakRss: Record<Product, { database?: number; cookieCache?: number }>;
}

const MB = 1024 * 1024;
/**
 * The rows of request pairs (pair-load.ts), printed with their latency and CPU a request. A function:
 * those modules import this one, so their names are not yet set while it loads.
 */
const isPairRow = (scenario: string) => [PASSKEY_SCENARIO, CODE_SCENARIO, SSO_SCENARIO].includes(scenario);
const NAMES: Record<Product, string> = { tessera: "Tessera", betterAuth: "Better Auth" };

/** The median of the rounds' rates (the mean of the middle two for an even count). */
export function medianRate(runs: Measurement[]): number {
  const rates = runs.map((run) => run.rate).sort((a, b) => a - b);
  const middle = rates.length / 2;
  return rates.length % 2 === 1 ? rates[Math.floor(middle)]! : (rates[middle - 1]! + rates[middle]!) / 2;
}

interface Row {
  scenario: string;
  target: Target;
  connections: number;
  tessera: ProductFigures;
  betterAuth: ProductFigures;
  /** Tessera's median rate over Better Auth's. */
  ratio: number;
  /** PASS, MISS, or FAILED when a run had non-2xx answers, errors or none at all (its rate means nothing). */
  verdict: "PASS" | "MISS" | "FAILED";
}

interface ProductFigures {
  median: number;
  rates: number[];
  failures: number;
  /** Medians of the rounds' CPU per request (ms) of the server and of the database process. */
  serverCpuMs: number;
  databaseCpuMs: number;
  /** Of the server's: its main thread (all but the work of libuv's pool, where scrypt runs). */
  mainThreadCpuMs: number;
  /** Median of the rounds' median latency, ms. */
  p50Ms: number;
  /** Median of the rounds' 99th-percentile latency, ms. */
  p99Ms: number;
  /** Median of the rounds' CPU a request of the load generator's process (and the SSO row's IdP), when watched. */
  clientCpuMs: number;
  /** The 1-minute load average as each round started, when recorded. */
  loadAverages: number[];
}

/** The lower middle of the values (NaN for none). */
function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

function figuresOf(runs: VersusMeasurement[]): ProductFigures {
  return {
    median: medianRate(runs),
    rates: runs.map((run) => run.rate),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    serverCpuMs: middle(runs.map((run) => run.cpuMs.server ?? Number.NaN)),
    databaseCpuMs: middle(runs.map((run) => run.cpuMs.database ?? Number.NaN)),
    mainThreadCpuMs: middle(runs.map((run) => run.cpuMs.main ?? Number.NaN)),
    p50Ms: middle(runs.map((run) => run.p50)),
    p99Ms: middle(runs.map((run) => run.p99)),
    clientCpuMs: middle(runs.map((run) => run.cpuMs.client ?? Number.NaN)),
    loadAverages: runs.flatMap((run) => (run.loadAverage === undefined ? [] : [run.loadAverage])),
  };
}

/**
 * Better Auth's CPU a request over Tessera's (server, database and the load generator's share): the
 * rate ratio the machine would give if CPU were all that limited both, which moves far less with the
 * neighbours' load than the rates do. NaN when a figure is missing.
 */
function cpuRatio(row: Pick<Row, "tessera" | "betterAuth">): number {
  const total = (f: ProductFigures) =>
    f.serverCpuMs + f.databaseCpuMs + (Number.isFinite(f.clientCpuMs) ? f.clientCpuMs : 0);
  return total(row.betterAuth) / total(row.tessera);
}

export function versusRows(results: VersusResults): Row[] {
  return Object.entries(results.scenarios).map(([scenario, runs]) => {
    const tessera = figuresOf(runs.tessera);
    const betterAuth = figuresOf(runs.betterAuth);
    const ratio = tessera.median / betterAuth.median;
    const met = runs.target === "×2" ? ratio >= 2 : ratio > 1;
    const failed =
      tessera.failures + betterAuth.failures > 0 || !(tessera.median > 0 && betterAuth.median > 0);
    const verdict = failed ? "FAILED" : met ? "PASS" : "MISS";
    return {
      scenario,
      target: runs.target,
      connections: runs.connections,
      tessera,
      betterAuth,
      ratio,
      verdict,
    };
  });
}

export function printVersus(results: VersusResults): void {
  const pad = (text: string, width: number) => text.padEnd(width);
  const left = (text: string, width: number) => text.padStart(width);
  const rate = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "-");
  const range = (rates: number[]) =>
    rates.length > 1 ? `${rate(Math.min(...rates))}–${rate(Math.max(...rates))}` : "";
  console.log(
    `\nTessera vs Better Auth 1.7 (same database server, same run): req/s, median of ${results.rounds} rounds ` +
      `(range), ${results.seconds} s each (sign-in and sign-up: ${results.hashRounds} rounds of ${results.hashSeconds} s); ` +
      `${results.pinning} for the cookie cache`,
  );
  console.log(
    `${pad("scenario", 34)}${left("conns", 6)}${left("Tessera", 9)}${left("range", 14)}${left("Better Auth", 13)}${left("range", 14)}` +
      `${left("ratio", 8)}${left("target", 8)}  verdict`,
  );
  for (const row of versusRows(results)) {
    const failed = row.tessera.failures + row.betterAuth.failures;
    console.log(
      `${pad(row.scenario, 34)}${left(String(row.connections), 6)}${left(rate(row.tessera.median), 9)}${left(range(row.tessera.rates), 14)}` +
        `${left(rate(row.betterAuth.median), 13)}${left(range(row.betterAuth.rates), 14)}` +
        `${left(`×${row.ratio.toFixed(2)}`, 8)}${left(row.target, 8)}  ${row.verdict}` +
        (failed > 0
          ? ` (${failed} failed requests)`
          : row.verdict === "FAILED"
            ? " (a run finished no request)"
            : ""),
    );
  }
  // What the rates of the hashing scenarios rest on: CPU per request, the same scrypt call in both.
  for (const row of versusRows(results).filter((row) => row.target === "ahead")) {
    const cpu = (figures: ProductFigures) =>
      `${figures.serverCpuMs.toFixed(1)} ms server (main thread ${figures.mainThreadCpuMs.toFixed(1)}) + ` +
      `${figures.databaseCpuMs.toFixed(1)} ms database`;
    console.log(`CPU per ${row.scenario}: Tessera ${cpu(row.tessera)}, Better Auth ${cpu(row.betterAuth)}`);
  }
  // The pair rows (passwordless, SSO): latency per request of a pair, what it costs, the load it ran at.
  for (const row of versusRows(results).filter((row) => isPairRow(row.scenario))) {
    const figures = (f: ProductFigures) =>
      `p50 ${f.p50Ms.toFixed(1)} / p99 ${f.p99Ms.toFixed(1)} ms, CPU ${f.serverCpuMs.toFixed(2)} ms server + ` +
      `${f.databaseCpuMs.toFixed(2)} ms database + ${f.clientCpuMs.toFixed(2)} ms load generator`;
    const loads = [...row.tessera.loadAverages, ...row.betterAuth.loadAverages];
    const load =
      loads.length > 0 ? `; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}` : "";
    console.log(
      `${row.scenario}, per request: Tessera ${figures(row.tessera)}; Better Auth ${figures(row.betterAuth)}; ` +
        `by CPU ×${cpuRatio(row).toFixed(2)}${load}`,
    );
  }
  for (const phase of ["database", "cookieCache"] as const) {
    const of = (product: Product) => results.peakRss[product][phase] ?? Number.NaN;
    if (PRODUCTS.every((product) => results.peakRss[product][phase] === undefined)) continue;
    const label = phase === "database" ? "the database pair" : "cookie-cached get-session";
    console.log(
      `peak RSS (${label}): ${PRODUCTS.map((product) => `${NAMES[product]} ${(of(product) / MB).toFixed(1)} MB`).join(", ")}` +
        ` (×${(of("tessera") / of("betterAuth")).toFixed(2)})`,
    );
  }
  console.log(
    `load average at the end (1/5/15 min): ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );
}

/** The figures as JSON (the table's rows, each round's rate, peak RSS), for the record. */
export async function writeVersusReport(results: VersusResults, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const report = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: cpus().length, loadAverage: loadavg(), node: process.version },
    settings: {
      seconds: results.seconds,
      hashSeconds: results.hashSeconds,
      rounds: results.rounds,
      hashRounds: results.hashRounds,
      pinning: results.pinning,
    },
    scenarios: versusRows(results).map((row) => ({ ...row, cpuRatio: cpuRatio(row) })),
    peakRssBytes: results.peakRss,
  };
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
}
