import { readFileSync, rmSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sleep } from "./processes.ts";

/**
 * Who serves a kept data dir: two FerretDB processes on the same SQLite files (a second `npm run
 * dev` of the same app) would both write them. JSON `{ pid, port, owner }` beside the files: while a
 * start is under way the starting process's pid and `port: null`; once FerretDB answers, FerretDB's
 * own pid and port, and the pid of the process that started it (its owner, which stops it). A
 * FerretDB whose owner was killed outright still holds the files, but not for long (it dies at its
 * next write to the owner's closed pipes): it is stopped before another is started on them.
 */
const LOCK_FILE = "ferretdb.lock";
/** How long a later start waits for one under way (FerretDB answers within 15 s, READY_TIMEOUT_MS). */
const STARTING_WAIT_MS = 30_000;
/** A lock file without readable JSON this old is a crashed writer's, not one being written. */
const UNREADABLE_GRACE_MS = 5_000;

interface LockContent {
  pid: number;
  port: number | null;
  owner: number;
}
/** How long an orphaned FerretDB gets to stop on SIGTERM before SIGKILL (it flushes SQLite). */
const ORPHAN_GRACE_MS = 5_000;

/** The data dir is ours to start FerretDB on: say where it listens, and give it back on stop. */
export interface DataDirClaim {
  kind: "claimed";
  publish(pid: number, port: number): Promise<void>;
  release(): Promise<void>;
  /** For process exit, where nothing asynchronous runs. */
  releaseSync(): void;
}

/** Another process serves the data dir, on this port: use it, never a second FerretDB. */
interface DataDirServed {
  kind: "served";
  pid: number;
  port: number;
}

interface ClaimOptions {
  /** Whether a MongoDB-protocol server answers a ping on 127.0.0.1:port. */
  isServing(port: number): Promise<boolean>;
  log(line: string): void;
}

/**
 * Claims `dataDir` for a FerretDB start, or names the one serving it: a lock whose pid is alive and
 * whose port answers is honoured; one whose process is gone, or whose port no longer answers, is
 * taken over (said in the log); one still starting is waited for.
 */
export async function claimDataDir(
  dataDir: string,
  options: ClaimOptions,
): Promise<DataDirClaim | DataDirServed> {
  const file = join(dataDir, LOCK_FILE);
  const deadline = Date.now() + STARTING_WAIT_MS;
  for (;;) {
    const mine = JSON.stringify({ pid: process.pid, port: null, owner: process.pid } satisfies LockContent);
    // `wx`: exactly one of two starts creates the file.
    if (await writeFile(file, mine, { flag: "wx" }).then(() => true, refuseUnlessExists)) {
      return claimed(file, mine);
    }
    const text = await readFile(file, "utf8").catch(() => null);
    if (text === null) continue;
    const held = parseLock(text);
    if (held === null) {
      const age = Date.now() - ((await stat(file).catch(() => null))?.mtimeMs ?? 0);
      if (age > UNREADABLE_GRACE_MS) await takeOver(file, text, options, "its lock file is unreadable");
      else await sleep(50);
      continue;
    }
    if (!isAlive(held.pid)) {
      await takeOver(file, text, options, `process ${held.pid} is gone`);
      continue;
    }
    if (held.port !== null) {
      if (!(await options.isServing(held.port))) {
        await takeOver(file, text, options, `nothing answers on port ${held.port}`);
      } else if (isAlive(held.owner)) {
        return { kind: "served", pid: held.pid, port: held.port };
      } else {
        // Alive, answering on the port it published, its owner gone: the FerretDB that owner started.
        await stopOrphan(held.pid);
        await takeOver(
          file,
          text,
          options,
          `stopped FerretDB ${held.pid}, left by process ${held.owner}, which is gone`,
        );
      }
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `FerretDB is being started on ${dataDir} by process ${held.pid}, which did not finish within ${STARTING_WAIT_MS / 1000} s (stop it, or delete ${file} if it is not a FerretDB start)`,
      );
    await sleep(100);
  }
}

function refuseUnlessExists(error: NodeJS.ErrnoException): false {
  if (error.code === "EEXIST") return false;
  throw error;
}

function parseLock(text: string): LockContent | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockContent>;
    const pidOk = Number.isInteger(parsed.pid) && (parsed.pid ?? 0) > 0;
    const portOk = parsed.port === null || Number.isInteger(parsed.port);
    const ownerOk = Number.isInteger(parsed.owner) && (parsed.owner ?? 0) > 0;
    return pidOk && portOk && ownerOk
      ? { pid: parsed.pid!, port: parsed.port ?? null, owner: parsed.owner! }
      : null;
  } catch {
    return null;
  }
}

/** Signal 0 checks without signalling; EPERM means it runs under another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function stopOrphan(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {}
  };
  signal("SIGTERM");
  const deadline = Date.now() + ORPHAN_GRACE_MS;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (!isAlive(pid)) return;
  signal("SIGKILL");
  for (let waited = 0; isAlive(pid) && waited < ORPHAN_GRACE_MS; waited += 50) await sleep(50);
}

/** Removes a stale lock unless another start replaced it since it was read (then the loop reads it again). */
async function takeOver(file: string, seen: string, options: ClaimOptions, why: string): Promise<void> {
  const now = await readFile(file, "utf8").catch(() => null);
  if (now !== seen) return;
  await rm(file, { force: true });
  options.log(`mongo backend: taking over ${file} (${why})`);
}

function claimed(file: string, initial: string): DataDirClaim {
  let content = initial;
  // Only our own lock is removed: a later start may have taken over after we stopped answering.
  const isOurs = (text: string | null) => text === content;
  return {
    kind: "claimed",
    async publish(pid, port) {
      content = JSON.stringify({ pid, port, owner: process.pid } satisfies LockContent);
      await writeFile(file, content);
    },
    async release() {
      if (isOurs(await readFile(file, "utf8").catch(() => null))) await rm(file, { force: true });
    },
    releaseSync() {
      let text: string | null = null;
      try {
        text = readFileSync(file, "utf8");
      } catch {}
      if (isOurs(text)) rmSync(file, { force: true });
    },
  };
}
