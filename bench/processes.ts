import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (user + system, seconds) a process has used so far; NaN when it cannot be read (not
 * Linux). `pid` may also name one thread, `<pid>/task/<tid>` (mainThreadOf).
 */
export function cpuSeconds(pid: number | string | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm) ": state is field 3, utime 14 and stime 15 (proc(5)); comm may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return Number.NaN;
  }
}

/** The main thread of a process, for cpuSeconds: where a Node server runs everything but its pools. */
export const mainThreadOf = (pid: number | undefined) =>
  pid === undefined ? undefined : `${pid}/task/${pid}`;

let ticks: number | null = null;
function ticksPerSecond(): number {
  if (ticks === null) {
    const answer = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
    ticks = Number(answer.stdout?.trim()) || 100;
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
      const listens = args.some(
        (arg, index) =>
          arg === `--listen-addr=127.0.0.1:${port}` ||
          arg === `--port=${port}` ||
          (arg === "--port" && args[index + 1] === port),
      );
      if (listens) {
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
 * and 61k req/s from one run to the next. With `taskset` (util-linux) and at least two CPUs this
 * process may use, servers run on the first of them and the bench process (autocannon) on the
 * others; otherwise — or when taskset refuses — nothing is pinned and the bench goes on.
 */
export interface Pinning {
  enabled: boolean;
  /** Pins every thread of `pid` (and the threads it starts later) to the server CPU. */
  pinServer(pid: number | undefined): void;
  /** Moves this process to the load generator's CPUs until `release`. */
  pinLoad(): void;
  /** Gives this process back the CPUs it started with. */
  release(): void;
  description: string;
}

export function createPinning(): Pinning {
  const allowed = allowedCpus();
  const hasTaskset = spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;
  let enabled = hasTaskset && allowed.length >= 2;
  const [server, ...load] = allowed;
  const set = (pid: number | undefined, cpus: readonly number[]) => {
    if (!enabled || pid === undefined) return;
    try {
      execFileSync("taskset", ["-a", "-p", "-c", cpus.join(","), String(pid)], { stdio: "ignore" });
    } catch {
      enabled = false; // e.g. a CPU set the container does not allow: measure unpinned
    }
  };
  return {
    get enabled() {
      return enabled;
    },
    pinServer: (pid) => set(pid, [server!]),
    pinLoad: () => set(process.pid, load),
    release: () => set(process.pid, allowed),
    description: enabled
      ? `servers pinned to CPU ${server}, load generator to CPU ${load.join(",")}`
      : `not pinned (${hasTaskset ? "fewer than two CPUs" : "no taskset"})`,
  };
}

/** The CPUs this process may run on (Cpus_allowed_list, e.g. "0-3,8"); [] when unknown. */
function allowedCpus(): number[] {
  let list: string | undefined;
  try {
    list = readFileSync("/proc/self/status", "utf8").match(/^Cpus_allowed_list:\s*(\S+)/m)?.[1];
  } catch {
    return [];
  }
  const cpus: number[] = [];
  for (const part of (list ?? "").split(",")) {
    const [from, to = from] = part.split("-").map(Number);
    if (from === undefined || to === undefined || !Number.isInteger(from) || !Number.isInteger(to)) continue;
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus;
}
