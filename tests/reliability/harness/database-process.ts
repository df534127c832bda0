import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureFerretDbBinary, spawnFerretDb } from "@tessera/dev-db";
import { MongoClient } from "mongodb";
import { connectOnce, findFreePort, sleep } from "../../../packages/dev-db/src/processes.ts";

/**
 * The embedded database (FerretDB v1, SQLite) as a process the fault scenarios can kill and start
 * again on the same port and data directory. @tessera/dev-db picks a fresh port on every start,
 * which a restarted database must not do: the server's driver keeps the URI it was given.
 */
export interface DatabaseProcess {
  port: number;
  uri: string;
  pid(): number | undefined;
  /** SIGKILLs the process and waits until it has exited. */
  kill(): Promise<void>;
  /**
   * Starts it again on the same port and data; resolves once it answers ping, with the moment
   * (performance.now()) up to which it certainly accepted no connection: the start of the last
   * connection attempt it refused, or the spawn if none was refused. The server's driver may
   * reconnect and serve requests before the ping here succeeds, so "back" is that moment.
   */
  start(): Promise<number>;
  /** Kills it and removes its data directory. */
  destroy(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;

export async function startDatabaseProcess(): Promise<DatabaseProcess> {
  const binary = await ensureFerretDbBinary({ log: (line) => console.log(line) });
  const dataDir = await mkdtemp(join(tmpdir(), "tessera-reliability-db-"));
  const port = await findFreePort();
  const uri = `mongodb://127.0.0.1:${port}/`;
  let child: ChildProcess | null = null;
  const exitOnTestEnd = () => child?.kill("SIGKILL");
  process.once("exit", exitOnTestEnd);

  const start = async () => {
    const spawnedAt = performance.now();
    const started = spawnFerretDb(binary, dataDir, port, {
      env: process.env,
      logLevel: "error",
      stdout: "ignore",
    });
    let stderr = "";
    started.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child = started;
    let refusedUntil = spawnedAt;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (started.exitCode !== null) throw new Error(`FerretDB exited at start: ${stderr}`);
      const attemptAt = performance.now();
      try {
        await connectOnce(port);
      } catch {
        refusedUntil = attemptAt;
        await sleep(50);
        continue;
      }
      try {
        await ping(uri);
        return refusedUntil;
      } catch {
        await sleep(50);
      }
    }
    throw new Error(`FerretDB did not answer ping within ${READY_TIMEOUT_MS} ms: ${stderr}`);
  };

  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    port,
    uri,
    pid: () => child?.pid,
    kill,
    start,
    destroy: async () => {
      process.off("exit", exitOnTestEnd);
      await kill();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function ping(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
  try {
    await client.db("admin").command({ ping: 1 });
  } finally {
    await client.close();
  }
}
