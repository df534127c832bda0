import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** CPU time (user + system, seconds) a process has used so far; NaN when it cannot be read (not Linux). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm) ": state is field 3, utime 14 and stime 15 (proc(5)); comm may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return Number.NaN;
  }
}

let ticks: number | null = null;
function ticksPerSecond(): number {
  if (ticks === null) {
    const answer = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
    ticks = Number(answer.stdout.trim()) || 100;
  }
  return ticks;
}

/** The process listening on the database URI's port, when it is a local process started here (FerretDB, mongod). */
export function findDatabasePid(uri: string): number | undefined {
  const port = uri.match(/^mongodb:\/\/(?:127\.0\.0\.1|localhost):(\d+)/)?.[1];
  if (!port) return undefined;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined; // not Linux: the database's CPU is not reported
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.some((arg) => arg === `--listen-addr=127.0.0.1:${port}` || arg === `--port=${port}`)) {
        return Number(entry);
      }
    } catch {
      // The process ended while the list was read.
    }
  }
  return undefined;
}

/**
 * CPU pinning for the request-rate comparisons: on two cores the load generator and the server
 * otherwise share both, and where the scheduler puts them moved the bare server's rate between 28k
 * and 61k req/s from one run to the next. With `taskset` (util-linux) and at least two CPUs, servers
 * run on CPU 0 and the bench process (autocannon) on the others; without it nothing is pinned.
 */
export interface Pinning {
  enabled: boolean;
  /** Pins every thread of `pid` (and the threads it starts later) to the server CPU. */
  pinServer(pid: number | undefined): void;
  /** Moves this process to the load generator's CPUs until `release`. */
  pinLoad(): void;
  release(): void;
  description: string;
}

export function createPinning(): Pinning {
  const cpus = availableParallelism();
  const hasTaskset = spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;
  const enabled = hasTaskset && cpus >= 2;
  const set = (pid: number | undefined, list: string) => {
    if (enabled && pid !== undefined)
      execFileSync("taskset", ["-a", "-p", "-c", list, String(pid)], { stdio: "ignore" });
  };
  return {
    enabled,
    pinServer: (pid) => set(pid, "0"),
    pinLoad: () => set(process.pid, `1-${cpus - 1}`),
    release: () => set(process.pid, `0-${cpus - 1}`),
    description: enabled
      ? `servers pinned to CPU 0, load generator to CPU 1${cpus > 2 ? `-${cpus - 1}` : ""}`
      : `not pinned (${hasTaskset ? "one CPU" : "no taskset"})`,
  };
}
