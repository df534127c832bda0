import type { Measurement } from "./load.ts";

/** One scenario's measurements, one per round. */
export type Series = Measurement[];

export interface Results {
  sessionDb: Measurement;
  sessionCache: Series;
  floorServer: Series;
  signIn: Series;
  signUp: Measurement;
  bareServer: Series;
  bareScrypt: Series;
  peakRss: { database: number; cookieCache: number };
}

const MB = 1024 * 1024;

/** The run with the median rate (the lower middle one for an even count). */
export function medianRun(runs: Series): Measurement {
  const sorted = [...runs].sort((a, b) => a.rate - b.rate);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export function printResults(results: Results): void {
  printTable(results);
  printTargets(results);
  printSignInCost(results);
  console.log(
    `server peak RSS: ${(results.peakRss.database / MB).toFixed(1)} MB (database sessions; ran sign-in and sign-up), ` +
      `${(results.peakRss.cookieCache / MB).toFixed(1)} MB (cookie cache)`,
  );
}

function printTable(results: Results): void {
  const rows: Series[] = [
    [results.sessionDb],
    results.sessionCache,
    results.floorServer,
    results.bareServer,
    results.signIn,
    results.bareScrypt,
    [results.signUp],
  ];
  const pad = (text: string, width: number) => text.padEnd(width);
  const num = (value: number, digits: number, width = 10) =>
    (Number.isFinite(value) ? value.toFixed(digits) : "-").padStart(width);
  console.log(
    `\n${pad("scenario (median of rounds)", 32)}${"req/s".padStart(10)}${"range".padStart(18)}` +
      `${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"failed".padStart(8)}${"server CPU/req".padStart(16)}`,
  );
  for (const runs of rows) {
    const median = medianRun(runs);
    const rates = runs.map((run) => run.rate);
    const range = runs.length > 1 ? `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}` : "";
    const failures = runs.reduce((sum, run) => sum + run.failures, 0);
    const cpu = median.cpuMs.server ?? median.cpuMs.bench ?? Number.NaN;
    const cpuText = cpu < 1 ? `${num(cpu * 1000, 1, 11)} µs` : `${num(cpu, 2, 11)} ms`;
    console.log(
      `${pad(median.name, 32)}${num(median.rate, 1)}${range.padStart(18)}${num(median.p50, 1, 9)}` +
        `${num(median.p99, 1, 9)}${String(failures).padStart(8)}${Number.isFinite(cpu) ? cpuText : "-".padStart(16)}`,
    );
  }
}

function ratio(part: Series, whole: Series): number {
  return medianRun(part).rate / medianRun(whole).rate;
}

/**
 * The targets restated for this machine (two cores shared with the database): the
 * cached read against the floor any correct cached read needs, sign-in and sign-up against bare
 * scrypt at Tessera's own parameters, and peak RSS.
 */
function printTargets(results: Results): void {
  const sessionRatio = ratio(results.sessionCache, results.floorServer);
  const signInRatio = ratio(results.signIn, results.bareScrypt);
  const signUpRatio = ratio([results.signUp], results.bareScrypt);
  const peak = Math.max(results.peakRss.database, results.peakRss.cookieCache);
  const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
  const percent = (value: number) => `${(value * 100).toFixed(1).padStart(8)} %`;
  console.log("\ntarget                                        value      target   result");
  console.log(
    `cookie-cached get-session / floor server  ${percent(sessionRatio)}   ≥ 75 %    ${verdict(sessionRatio >= 0.75)}`,
  );
  console.log(
    `sign-in / bare scrypt                     ${percent(signInRatio)}   ≥ 85 %    ${verdict(signInRatio >= 0.85)}`,
  );
  console.log(
    `sign-up / bare scrypt                     ${percent(signUpRatio)}   ≥ 85 %    ${verdict(signUpRatio >= 0.85)}`,
  );
  console.log(
    `server peak RSS (VmHWM)                   ${(peak / MB).toFixed(1).padStart(7)} MB   ≤ 150 MB  ${verdict(peak <= 150 * MB)}`,
  );
  console.log("\nfor reference (no target):");
  console.log(
    `floor (node:http + cache check) / bare server ${percent(ratio(results.floorServer, results.bareServer))}`,
  );
  console.log(
    `cookie-cached get-session / bare server       ${percent(ratio(results.sessionCache, results.bareServer))}`,
  );
}

/**
 * Where a sign-in's CPU goes, against one bare scrypt hash: the ratio sign-in / bare scrypt cannot
 * pass scrypt's CPU over everything a sign-in costs on this machine, the database's share included.
 */
function printSignInCost(results: Results): void {
  const signIn = medianRun(results.signIn).cpuMs;
  const scrypt = medianRun(results.bareScrypt).cpuMs.bench ?? Number.NaN;
  const server = signIn.server ?? Number.NaN;
  const database = signIn.database ?? Number.NaN;
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "n/a");
  console.log(
    `\nCPU per sign-in: server ${ms(server)} (scrypt included), database ${ms(database)}; ` +
      `one bare scrypt hash: ${ms(scrypt)}`,
  );
  if (Number.isFinite(server + database + scrypt)) {
    console.log(
      `  at this cost the most sign-in / bare scrypt could reach is ${((scrypt / (server + database)) * 100).toFixed(1)} % ` +
        `(scrypt's CPU over the sign-in's, server and database)`,
    );
  }
}
