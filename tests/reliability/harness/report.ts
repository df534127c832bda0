import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Exchange } from "./traffic.ts";

const REPORT = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  ".reports",
  "reliability.json",
);

/**
 * Short (inside `pnpm test`) or full (`pnpm test:reliability`). The sizes of each scenario in both
 * modes live beside the scenario; this only says which one runs.
 */
export const isFull = process.env.TESSERA_RELIABILITY === "full";
const mode = isFull ? "full" : "short";

export interface TrafficSummary {
  requests: number;
  byStatus: Record<string, number>;
  /** Answers ≥ 500, and among them 503 SERVICE_UNAVAILABLE. */
  serverErrors: number;
  unavailable: number;
  /** Requests the client gave up on, and connections that failed without an HTTP answer. */
  hangs: number;
  networkErrors: number;
  /** The client's error message of each network error, with how many had it. */
  networkErrorMessages: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function summarize(exchanges: readonly Exchange[]): TrafficSummary {
  const byStatus: Record<string, number> = {};
  const times = exchanges.map((exchange) => exchange.answer.ms).sort((a, b) => a - b);
  let serverErrors = 0;
  let unavailable = 0;
  let hangs = 0;
  let networkErrors = 0;
  const networkErrorMessages: Record<string, number> = {};
  for (const { answer } of exchanges) {
    const key = answer.status === 0 ? "none" : String(answer.status);
    byStatus[key] = (byStatus[key] ?? 0) + 1;
    if (answer.status >= 500) serverErrors++;
    if (answer.status === 503) unavailable++;
    if (answer.hung) hangs++;
    else if (answer.status === 0) {
      networkErrors++;
      const message = answer.error ?? "no message";
      networkErrorMessages[message] = (networkErrorMessages[message] ?? 0) + 1;
    }
  }
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
  return {
    requests: exchanges.length,
    byStatus,
    serverErrors,
    unavailable,
    hangs,
    networkErrors,
    networkErrorMessages,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: Math.round(times.at(-1) ?? 0),
  };
}

/** A few exchanges that match, for an assertion message. */
export function examples(exchanges: readonly Exchange[], keep: (exchange: Exchange) => boolean): string[] {
  return exchanges
    .filter(keep)
    .slice(0, 5)
    .map(
      ({ endpoint, answer }) =>
        `${endpoint} → ${answer.status} ${answer.error ?? JSON.stringify(answer.body).slice(0, 160)} (${Math.round(answer.ms)} ms)`,
    );
}

/**
 * Prints one scenario's figures and merges them into .reports/reliability.json under the mode and
 * the scenario's name (`{ full: { load: … }, short: { … } }`), so a short run inside `pnpm test`
 * does not overwrite the last full run's figures (the lead quotes them). Scenarios run one after
 * another in one file, and the fuzz file writes only its own entry.
 */
export function reportScenario(scenario: string, figures: Record<string, unknown>): void {
  const entry = { finishedAt: new Date().toISOString(), ...figures };
  console.log(`\n[reliability:${mode}] ${scenario}\n${JSON.stringify(entry, null, 2)}`);
  let all: Record<string, Record<string, unknown>> = {};
  try {
    all = JSON.parse(readFileSync(REPORT, "utf8")) as Record<string, Record<string, unknown>>;
  } catch {
    // First scenario of the run, or an unreadable file: start again.
  }
  all[mode] = { ...(all[mode] ?? {}), [scenario]: entry };
  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(`${REPORT}.tmp`, `${JSON.stringify(all, null, 2)}\n`);
  renameSync(`${REPORT}.tmp`, REPORT);
}
