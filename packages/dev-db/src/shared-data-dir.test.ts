import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { MongoClient } from "mongodb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ensureFerretDbBinary,
  type FerretDbServer,
  type FerretDbServerOptions,
  spawnFerretDb,
  startFerretDb,
} from "./ferretdb.ts";
import { findFreePort } from "./processes.ts";

/**
 * A second dev server of the same app (`npm run dev` in two terminals) starts the database on the
 * same kept data dir: it must use the FerretDB already serving those SQLite files, never start a
 * second one on them (data-dir-lock.ts).
 */
const TIMEOUT_MS = 240_000;
const env = { PATH: process.env.PATH };

let dir: string;
/** Every server and process a test starts, stopped after it even when it fails half-way. */
let cleanups: (() => Promise<unknown> | unknown)[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "dev-db-shared-test-"));
});
afterEach(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  cleanups = [];
  await rm(dir, { recursive: true, force: true });
});

async function start(options: FerretDbServerOptions): Promise<FerretDbServer> {
  const server = await startFerretDb(options);
  cleanups.push(() => server.stop());
  return server;
}

/** The FerretDB processes serving `dataDir`, from the process table. */
async function serversOn(dataDir: string): Promise<number> {
  const { stdout } = await promisify(execFile)("ps", ["-eo", "args="]);
  return stdout.split("\n").filter((line) => line.includes(`--sqlite-url=file:${dataDir}/`)).length;
}

async function noteIn(uri: string): Promise<unknown> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
  try {
    return await client
      .db("shared")
      .collection("notes")
      .findOne({}, { projection: { _id: 0 } });
  } finally {
    await client.close();
  }
}

/** A pid no process has now: one that has just exited. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((done) => child.once("exit", done));
  return child.pid!;
}

describe("a data dir served by another start", () => {
  it(
    "is used by a second start, which starts no second FerretDB on its files and leaves it running when it stops",
    async () => {
      const binary = await ensureFerretDbBinary({ log: () => {} });
      const dataDir = join(dir, "db");
      const first = await start({ binary, dataDir, env, log: () => {} });
      try {
        const client = new MongoClient(first.uri);
        await client.db("shared").collection("notes").insertOne({ text: "from the first" });
        await client.close();

        const lines: string[] = [];
        const started = performance.now();
        const second = await start({ binary, dataDir, env, log: (line) => lines.push(line) });
        console.info(`second start on a served data dir: ${(performance.now() - started).toFixed(0)} ms`);
        expect(second.uri).toBe(first.uri);
        expect(await serversOn(dataDir)).toBe(1);
        const lock = JSON.parse(await readFile(join(dataDir, "ferretdb.lock"), "utf8"));
        expect(lines).toEqual([
          `mongo backend: FerretDB (pid ${lock.pid}) already serves ${dataDir} on port ${new URL(first.uri).port}; using it (it stops with the process that started it)`,
        ]);
        expect(await noteIn(second.uri)).toEqual({ text: "from the first" });

        await second.stop();
        expect(await noteIn(first.uri)).toEqual({ text: "from the first" });
      } finally {
        await first.stop();
      }
      expect(await serversOn(dataDir)).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    "two starts at the same moment make one server",
    async () => {
      const binary = await ensureFerretDbBinary({ log: () => {} });
      const dataDir = join(dir, "db");
      const [one, two] = await Promise.all([
        start({ binary, dataDir, env, log: () => {} }),
        start({ binary, dataDir, env, log: () => {} }),
      ]);
      try {
        expect(one.uri).toBe(two.uri);
        expect(await serversOn(dataDir)).toBe(1);
      } finally {
        await Promise.all([one.stop(), two.stop()]);
      }
      expect(await serversOn(dataDir)).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    "a lock left by a start that is gone, or naming a port nothing answers on, is taken over (said in the log)",
    async () => {
      const binary = await ensureFerretDbBinary({ log: () => {} });
      const dataDir = join(dir, "db");
      await mkdir(dataDir, { recursive: true });
      const lockFile = join(dataDir, "ferretdb.lock");
      const gone = await exitedPid();
      await writeFile(lockFile, JSON.stringify({ pid: gone, port: 27017, owner: gone }));
      const lines: string[] = [];
      const first = await start({ binary, dataDir, env, log: (line) => lines.push(line) });
      await first.stop();
      expect(lines).toEqual([`mongo backend: taking over ${lockFile} (process ${gone} is gone)`]);

      // A live pid (this one) whose port answers nothing: a FerretDB that died under a live owner.
      const silent = await findFreePort();
      await writeFile(lockFile, JSON.stringify({ pid: process.pid, port: silent, owner: process.pid }));
      lines.length = 0;
      const second = await start({ binary, dataDir, env, log: (line) => lines.push(line) });
      const lock = JSON.parse(await readFile(lockFile, "utf8"));
      await second.stop();
      expect(lines).toEqual([`mongo backend: taking over ${lockFile} (nothing answers on port ${silent})`]);
      expect(lock.port).toBe(Number(new URL(second.uri).port));
      // Stopped: the lock goes with the server.
      await expect(readFile(lockFile, "utf8")).rejects.toThrow(/ENOENT/);
    },
    TIMEOUT_MS,
  );

  it(
    "a FerretDB left serving the files by a process that is gone is stopped before another starts on them",
    async () => {
      const binary = await ensureFerretDbBinary({ log: () => {} });
      const dataDir = join(dir, "db");
      await mkdir(dataDir, { recursive: true });
      const port = await findFreePort();
      const orphan = spawnFerretDb(binary, dataDir, port, { env, logLevel: "warn", stdout: "ignore" });
      cleanups.push(() => orphan.kill("SIGKILL"));
      await expect
        .poll(() =>
          noteIn(`mongodb://127.0.0.1:${port}/`).then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      const gone = await exitedPid();
      const lockFile = join(dataDir, "ferretdb.lock");
      await writeFile(lockFile, JSON.stringify({ pid: orphan.pid, port, owner: gone }));

      const lines: string[] = [];
      const server = await start({ binary, dataDir, env, log: (line) => lines.push(line) });
      try {
        expect(orphan.signalCode ?? orphan.exitCode).not.toBe(null);
        expect(lines).toEqual([
          `mongo backend: taking over ${lockFile} (stopped FerretDB ${orphan.pid}, left by process ${gone}, which is gone)`,
        ]);
        expect(await serversOn(dataDir)).toBe(1);
        expect(await noteIn(server.uri)).toBe(null);
      } finally {
        await server.stop();
      }
    },
    TIMEOUT_MS,
  );
});
