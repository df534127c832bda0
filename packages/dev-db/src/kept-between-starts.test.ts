import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MongoClient } from "mongodb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureFerretDbBinary, ferretDbBinaryPath, startFerretDb } from "./ferretdb.ts";
import { startDevDatabase } from "./index.ts";
import { findFreePort } from "./processes.ts";

/** The first FerretDB build downloads Go modules (~55-70 s); later starts take well under a second. */
const FIRST_BUILD_TIMEOUT_MS = 240_000;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "dev-db-kept-test-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function portOf(uri: string): number {
  return Number(new URL(uri).port);
}

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

describe("a kept data directory", () => {
  it(
    "is served on the same port at the next start, and on another one, said in the log, when that port is taken",
    async () => {
      const binary = await ensureFerretDbBinary({ log: () => {} });
      const dataDir = join(dir, "db");
      const env = { PATH: process.env.PATH };

      const first = await startFerretDb({ binary, dataDir, env, log: () => {} });
      const client = new MongoClient(first.uri);
      await client
        .db("kept")
        .collection("notes")
        .insertOne({ _id: "n1" as never, text: "hello" });
      await client.close();
      await first.stop();
      const port = portOf(first.uri);
      expect(await readFile(join(dataDir, "ferretdb.port"), "utf8")).toBe(`${port}\n`);

      const lines: string[] = [];
      const second = await startFerretDb({ binary, dataDir, env, log: (line) => lines.push(line) });
      await second.stop();
      expect(second.uri).toBe(first.uri);
      expect(lines).toEqual([]);

      const squatter = await occupy(port);
      try {
        const third = await startFerretDb({ binary, dataDir, env, log: (line) => lines.push(line) });
        const reader = new MongoClient(third.uri);
        const note = await reader.db("kept").collection("notes").findOne({});
        await reader.close();
        await third.stop();
        const moved = portOf(third.uri);
        expect(moved).not.toBe(port);
        expect(note).toEqual({ _id: "n1", text: "hello" });
        expect(lines).toEqual([
          `mongo backend: port ${port} (kept in ${join(dataDir, "ferretdb.port")}) is taken; FerretDB listens on ${moved}`,
        ]);
        expect(await readFile(join(dataDir, "ferretdb.port"), "utf8")).toBe(`${moved}\n`);
      } finally {
        await new Promise((done) => squatter.close(done));
      }
    },
    FIRST_BUILD_TIMEOUT_MS,
  );
});

describe("a mongod that could not be found or downloaded", () => {
  it(
    "is not looked for again with the same cache: the next start goes to FerretDB without a word about it",
    async () => {
      // A cache of its own, holding the FerretDB binary already built, and a download that fails at once.
      const cacheDir = join(dir, "cache");
      const built = await ensureFerretDbBinary({ log: () => {} });
      await mkdir(dirname(ferretDbBinaryPath(cacheDir)), { recursive: true });
      await symlink(built, ferretDbBinaryPath(cacheDir));
      const { MONGODB_URI: _uri, MONGOMS_SYSTEM_BINARY: _binary, ...inherited } = process.env;
      const env = {
        ...inherited,
        MONGOMS_DOWNLOAD_URL: `http://127.0.0.1:${await findFreePort()}/mongodb-linux-x86_64-debian12-8.2.6.tgz`,
        MONGOMS_DOWNLOAD_DIR: join(dir, "mongod"),
      };
      const marker = join(cacheDir, "mongodb-memory-server-failed.json");

      const startWith = async (startEnv: NodeJS.ProcessEnv) => {
        const lines: string[] = [];
        const database = await startDevDatabase({ env: startEnv, cacheDir, log: (line) => lines.push(line) });
        await database.stop();
        return { backend: database.backend, lines };
      };

      const first = await startWith(env);
      expect(first.backend).toBe("ferretdb");
      expect(first.lines[0]).toMatch(
        /^mongo backend: mongodb-memory-server unavailable \(.+\); using FerretDB, now and at later starts \(delete .+ to try again\)$/,
      );
      expect(first.lines[0]).toContain(marker);

      const second = await startWith(env);
      expect(second.backend).toBe("ferretdb");
      expect(second.lines).toHaveLength(1);
      expect(second.lines[0]).toMatch(/^mongo backend: ferretdb /);

      // Another mongod version, or the user's own mongod, is tried again.
      const other = await startWith({ ...env, MONGOMS_VERSION: "7.0.14" });
      expect(other.lines[0]).toMatch(/^mongo backend: mongodb-memory-server unavailable/);
      const own = await startWith({ ...env, MONGOMS_SYSTEM_BINARY: join(dir, "no-such-mongod") });
      expect(own.lines[0]).toMatch(/^mongo backend: mongodb-memory-server unavailable \(.*no-such-mongod/);

      // Deleting the file (or a new cache) tries again.
      await writeFile(marker, "not json");
      expect((await startWith(env)).lines[0]).toMatch(/^mongo backend: mongodb-memory-server unavailable/);
    },
    FIRST_BUILD_TIMEOUT_MS,
  );
});
