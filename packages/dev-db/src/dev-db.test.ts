import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { MongoClient, MongoServerError, ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ferretDbEnv, preparePatchedSource } from "./ferretdb.ts";
import { addFerretDbTests, FERRETDB_GO_DIR, listChangedFiles, listFilesUnder } from "./ferretdb-patch.ts";
import { startDevDatabase } from "./index.ts";

const run = promisify(execFile);

function envWithoutMongoUri(): NodeJS.ProcessEnv {
  const { MONGODB_URI: _ignored, ...env } = process.env;
  return env;
}

/** Runs `body` against a fresh embedded database (never MONGODB_URI) through a connected client. */
async function withEmbeddedDatabase(
  body: (client: MongoClient, database: { backend: string }) => Promise<void>,
): Promise<void> {
  const database = await startDevDatabase({ env: envWithoutMongoUri(), log: () => {} });
  const client = new MongoClient(database.uri);
  try {
    await client.connect();
    await body(client, database);
  } finally {
    await client.close();
    await database.stop();
  }
}

function portOf(uri: string): number {
  return Number(new URL(uri).port);
}

function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The first FerretDB build downloads Go modules (~55-70 s); later starts take well under a second. */
const FIRST_BUILD_TIMEOUT_MS = 240_000;
/** go vet compiles the touched packages' tests too: minutes the first time on a busy machine, seconds after. */
const GO_VET_TIMEOUT_MS = 480_000;
/** `npm pack --dry-run` reads the package: a few seconds on a busy machine. */
const PACK_TIMEOUT_MS = 60_000;

describe("startDevDatabase", () => {
  it(
    "starts a real MongoDB-protocol server that stores documents and enforces unique indexes",
    async () => {
      const lines: string[] = [];
      const database = await startDevDatabase({ env: envWithoutMongoUri(), log: (line) => lines.push(line) });
      expect(database.backend).not.toBe("env");
      expect(lines.at(-1)).toBe(`mongo backend: ${database.description}`);
      const client = new MongoClient(database.uri);
      try {
        const users = client.db("dev_db_test").collection<{ email: string; name: string }>("users");
        await users.createIndex({ email: 1 }, { unique: true });
        await users.insertOne({ email: "ada@example.com", name: "Ada" });
        expect(await users.findOne({ email: "ada@example.com" })).toMatchObject({ name: "Ada" });

        const duplicate = await users
          .insertOne({ email: "ada@example.com", name: "Eve" })
          .catch((e: unknown) => e);
        expect(duplicate).toBeInstanceOf(MongoServerError);
        expect((duplicate as MongoServerError).code).toBe(11000);
      } finally {
        await client.close();
        await database.stop();
      }
      expect(await isPortOpen(portOf(database.uri))).toBe(false);
    },
    FIRST_BUILD_TIMEOUT_MS,
  );

  it("returns MONGODB_URI as is when it is set", async () => {
    const uri = "mongodb://user:secret@db.example.invalid:27017/tessera?authSource=admin";
    const lines: string[] = [];
    const database = await startDevDatabase({ env: { MONGODB_URI: uri }, log: (line) => lines.push(line) });
    expect(database.uri).toBe(uri);
    expect(database.backend).toBe("env");
    expect(lines.join("\n")).not.toContain("secret");
    await database.stop();
  });

  it("explains all three options when no backend can be started", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), "dev-db-test-cache-"));
    const env = {
      ...envWithoutMongoUri(),
      MONGOMS_SYSTEM_BINARY: join(cacheDir, "no-such-mongod"),
      PATH: join(cacheDir, "no-such-bin"),
    };
    try {
      const failure = await startDevDatabase({ env, cacheDir, log: () => {} }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(Error);
      const message = (failure as Error).message;
      expect(message).toContain("MONGODB_URI");
      expect(message).toContain("MONGOMS_SYSTEM_BINARY");
      expect(message).toContain("no-such-mongod");
      expect(message).toContain("Go >= 1.24");
      expect(message).toContain("`go` is not on PATH");
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

describe("the embedded FerretDB's environment", () => {
  it("collects Go's garbage less often by default, and keeps what the environment sets", () => {
    expect(ferretDbEnv({ PATH: "/bin" })).toEqual({ PATH: "/bin", GOGC: "400", GOMEMLIMIT: "1GiB" });
    expect(ferretDbEnv({ GOGC: "100", GOMEMLIMIT: "256MiB" })).toEqual({ GOGC: "100", GOMEMLIMIT: "256MiB" });
  });
});

describe("our FerretDB changes (go/, ferretdb-patch.ts)", () => {
  const env = { ...process.env, CGO_ENABLED: "0" };
  let workDir: string;
  let sourceDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "tessera-ferretdb-test-"));
    sourceDir = join(workDir, "FerretDB");
    await preparePatchedSource(sourceDir, env);
    await addFerretDbTests(sourceDir);
    // FerretDB's test helpers look for the repository root.
    await run("git", ["init", "-q", sourceDir]);
  }, FIRST_BUILD_TIMEOUT_MS);
  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it(
    "are formatted (gofmt -l lists none) and pass go vet in the patched module, in every package they touch",
    async () => {
      const files = await listChangedFiles();
      expect(files).toContain("internal/handler/sjson/sjson.go");
      const unformatted = await run("gofmt", ["-l", ...files], { cwd: sourceDir });
      expect(unformatted.stdout).toBe("");
      const packages = [...new Set(files.map((file) => `./${dirname(file)}/`))];
      // Rejects with vet's findings (exit status 1) when there are any.
      await run("go", ["vet", ...packages], { cwd: sourceDir, env, maxBuffer: 16 * 1024 * 1024 });
    },
    GO_VET_TIMEOUT_MS,
  );

  it(
    "decode stored documents as upstream does: upstream's sjson tests and 30,000 random documents through both decoders",
    async () => {
      const test = await run("go", ["test", "-count=1", "-v", "./internal/handler/sjson/"], {
        cwd: sourceDir,
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(test.stdout).toContain("--- PASS: TestTesseraDecodeRandomDocuments");
      expect(test.stdout).toContain("--- PASS: TestTesseraDecodeKnownDocuments");
      expect(test.stdout).toContain("--- PASS: TestMarshalUnmarshal");
      expect(test.stdout).not.toContain("--- FAIL");
      expect(test.stdout.trimEnd().split("\n").at(-1)).toMatch(/^ok\s/);
    },
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "are in the packed package, so an installed @tessera/dev-db builds the same binary",
    async () => {
      const packed = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: join(import.meta.dirname, ".."),
        maxBuffer: 16 * 1024 * 1024,
      });
      const paths = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map(
        (file) => file.path,
      );
      for (const part of ["added", "patches"]) {
        for (const file of listFilesUnder(join(FERRETDB_GO_DIR, part)))
          expect(paths).toContain(`go/${part}/${file}`);
      }
    },
    PACK_TIMEOUT_MS,
  );
});

describe("the embedded FerretDB (patched: go/, ferretdb-patch.ts)", () => {
  it(
    "answers _id equality, $eq and $in from the _id index, also beside other conditions, with exact results",
    () =>
      withEmbeddedDatabase(async (client, database) => {
        const collection = client.db("patch").collection<{ _id: string; n: number }>("docs");
        await collection.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `key-${n}`, n })));
        const plan = async (filter: Record<string, unknown>) => {
          const explained = await collection.find(filter).explain();
          return JSON.stringify(explained.queryPlanner);
        };
        if (database.backend === "ferretdb") {
          for (const filter of [
            { _id: "key-7" },
            { _id: { $eq: "key-7" } },
            { _id: { $in: ["key-7", "key-9"] } },
            { _id: "key-7", n: { $gt: 3 } },
          ]) {
            expect(await plan(filter), JSON.stringify(filter)).toContain("USING INDEX");
          }
          expect(await plan({ n: 7 })).not.toContain("USING INDEX");
        }
        // Whatever SQLite reads, the handler's filter decides: the answers are MongoDB's.
        expect(await collection.findOne({ _id: "key-7", n: { $gt: 3 } })).toEqual({ _id: "key-7", n: 7 });
        expect(await collection.findOne({ _id: "key-2", n: { $gt: 3 } })).toBeNull();
        const mixed: unknown[] = ["key-9", "key-7", "nope", 7];
        const found = await collection.find({ _id: { $in: mixed as string[] } }).toArray();
        expect(found.map((doc) => doc._id).sort()).toEqual(["key-7", "key-9"]);
        expect(await collection.countDocuments({ _id: { $in: ["key-1", "key-2"] }, n: 2 })).toBe(1);
        await collection.deleteMany({ _id: { $in: ["key-1", "key-2"] } });
        expect(await collection.countDocuments({})).toBe(48);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "changes a document atomically under concurrent update, findAndModify and delete (go/patches/0007), as MongoDB does",
    () =>
      withEmbeddedDatabase(async (client) => {
        type Row = { _id: string; n: number; seen: number[]; used?: boolean };
        const collection = client.db("patch").collection<Row>("concurrent");
        const N = 100;
        const each = <T>(body: (i: number) => Promise<T>) =>
          Promise.all(Array.from({ length: N }, (_, i) => body(i)));
        // Upstream lost most of these: 200 concurrent $inc of one field stored 24.
        await collection.insertOne({ _id: "counter", n: 0, seen: [] });
        await each((i) => collection.updateOne({ _id: "counter" }, { $inc: { n: 1 }, $push: { seen: i } }));
        const counted = await collection.findOne({ _id: "counter" });
        expect(counted?.n).toBe(N);
        expect([...(counted?.seen ?? [])].sort((a, b) => a - b)).toEqual(
          Array.from({ length: N }, (_, i) => i),
        );
        await each(() => collection.findOneAndUpdate({ _id: "counter" }, { $inc: { n: 1 } }));
        expect((await collection.findOne({ _id: "counter" }))?.n).toBe(2 * N);
        // A single-use token consumed by a conditional findAndModify: one caller wins.
        await collection.insertOne({ _id: "token", n: 0, seen: [], used: false });
        const consumed = await each(() =>
          collection.findOneAndUpdate({ _id: "token", used: false }, { $set: { used: true } }),
        );
        expect(consumed.filter((doc) => doc !== null)).toHaveLength(1);
        await collection.insertOne({ _id: "once", n: 0, seen: [] });
        const removed = await each(() => collection.findOneAndDelete({ _id: "once" }));
        expect(removed.filter((doc) => doc !== null)).toHaveLength(1);
        const deletes = await each(() => collection.deleteOne({ _id: "counter" }));
        expect(deletes.reduce((sum, result) => sum + result.deletedCount, 0)).toBe(1);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "answers string and ObjectId equality on other fields from their indexes, arrays and look-alikes included",
    () =>
      withEmbeddedDatabase(async (client, database) => {
        type Row = { _id: number; org?: unknown; user?: unknown; n: number };
        const collection = client.db("patch").collection<Row>("fields");
        await collection.createIndex({ org: 1, user: 1 });
        const [a, b, c] = [new ObjectId(), new ObjectId(), new ObjectId()];
        await collection.insertMany([
          ...Array.from({ length: 20 }, (_, n) => ({ _id: n, org: a, user: `user-${n}`, n })),
          ...Array.from({ length: 40 }, (_, n) => ({ _id: 100 + n, org: b, user: `user-${n}`, n })),
          // MongoDB's equality matches an array holding the value, not a string of the same hex.
          { _id: 200, org: [c, a], user: ["user-3", "user-99"], n: 200 },
          { _id: 201, org: a.toHexString(), user: "user-3", n: 201 },
          // A value whose JSON has an escape, a number, a missing field.
          { _id: 202, org: 'quo"te', user: "user-3", n: 202 },
          { _id: 203, org: 7, n: 203 },
          { _id: 204, n: 204 },
        ]);
        const plan = async (filter: Record<string, unknown>) =>
          JSON.stringify((await collection.find(filter).explain()).queryPlanner);
        if (database.backend === "ferretdb") {
          for (const filter of [
            { org: a },
            { org: { $eq: a } },
            { org: { $in: [a, b] } },
            { org: a, user: "user-3" },
            { user: "user-3", org: b, n: { $gt: 1 } },
          ]) {
            expect(await plan(filter), JSON.stringify(filter)).toContain("USING INDEX");
          }
          // Not the index's leading field, an escaped string, a number: read whole, filtered by the handler.
          for (const filter of [{ user: "user-3" }, { org: 'quo"te' }, { org: 7 }]) {
            expect(await plan(filter), JSON.stringify(filter)).not.toContain("USING INDEX");
          }
        }
        const ids = async (filter: Record<string, unknown>) =>
          (await collection.find(filter).toArray()).map((row) => row._id).sort((x, y) => x - y);
        expect(await ids({ org: a })).toEqual([...Array.from({ length: 20 }, (_, n) => n), 200]);
        expect(await ids({ org: { $eq: c } })).toEqual([200]);
        expect(await ids({ org: a.toHexString() })).toEqual([201]);
        expect(await ids({ org: { $in: [c, a.toHexString()] } })).toEqual([200, 201]);
        expect(await ids({ org: a, user: "user-3" })).toEqual([3, 200]);
        expect(await ids({ org: b, user: "user-99" })).toEqual([]);
        expect(await ids({ org: 'quo"te' })).toEqual([202]);
        expect(await ids({ org: 7 })).toEqual([203]);
        expect(await ids({ user: "user-3", n: { $gte: 200 } })).toEqual([200, 201, 202]);
        expect(await collection.countDocuments({ org: b })).toBe(40);
        // A prefix range on another field: an index range too, arrays included.
        const prefixed = client.db("patch").collection<{ _id: number; identifier: unknown }>("prefixed");
        await prefixed.createIndex({ identifier: 1 });
        await prefixed.insertMany([
          { _id: 1, identifier: "lane:a:1" },
          { _id: 2, identifier: "lane:a:2" },
          { _id: 3, identifier: "lane:ab" },
          { _id: 4, identifier: "lane:b:1" },
          { _id: 5, identifier: ["x", "lane:a:9"] },
          { _id: 6, identifier: 7 },
        ]);
        const range = { $gte: "lane:a:", $lt: "lane:a;" };
        if (database.backend === "ferretdb") {
          const explained = await prefixed.find({ identifier: range }).explain();
          expect(JSON.stringify(explained.queryPlanner)).toContain("USING INDEX");
        }
        const inRange = await prefixed.find({ identifier: range }).toArray();
        expect(inRange.map((row) => row._id).sort()).toEqual([1, 2, 5]);
        expect((await prefixed.deleteMany({ identifier: range })).deletedCount).toBe(3);
        expect(await prefixed.countDocuments({})).toBe(3);
        await collection.updateMany({ org: a, n: { $lt: 5 } }, { $set: { n: -1 } });
        expect(await ids({ n: -1 })).toEqual([0, 1, 2, 3, 4]);
        expect((await collection.deleteMany({ org: { $in: [b, c] } })).deletedCount).toBe(41);
        expect(await collection.countDocuments({})).toBe(24);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "counts a collection exactly through inserts, deletes, refused inserts, concurrent writes and a drop",
    () =>
      withEmbeddedDatabase(async (client) => {
        const collection = client.db("patch").collection<{ _id: number; n: number }>("counted");
        await collection.insertMany(Array.from({ length: 100 }, (_, n) => ({ _id: n, n })));
        expect(await collection.estimatedDocumentCount()).toBe(100);
        await collection.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: 100 + n, n: 100 + n })));
        expect(await collection.estimatedDocumentCount()).toBe(150);
        await collection.deleteMany({ n: { $lt: 20 } });
        expect(await collection.estimatedDocumentCount()).toBe(130);
        await expect(collection.insertOne({ _id: 50, n: 50 })).rejects.toThrow(MongoServerError);
        await collection.updateMany({}, { $set: { n: 0 } });
        expect(await collection.estimatedDocumentCount()).toBe(130);
        // Writes and counts at once: every count is a number the collection held, the last one exact.
        const counts = await Promise.all([
          ...Array.from({ length: 20 }, (_, k) =>
            collection.insertOne({ _id: 1000 + k, n: k }).then(() => -1),
          ),
          ...Array.from({ length: 5 }, () => collection.estimatedDocumentCount()),
        ]);
        for (const count of counts.filter((value) => value >= 0)) {
          expect(count).toBeGreaterThanOrEqual(130);
          expect(count).toBeLessThanOrEqual(150);
        }
        expect(await collection.estimatedDocumentCount()).toBe(150);
        expect(await collection.countDocuments({})).toBe(150);
        // Dropped and created again (the same table name): counted from its new rows.
        await collection.drop();
        expect(await collection.estimatedDocumentCount()).toBe(0);
        await collection.insertMany(Array.from({ length: 7 }, (_, n) => ({ _id: n, n })));
        expect(await collection.estimatedDocumentCount()).toBe(7);
        await collection.deleteOne({ _id: 3 });
        expect(await collection.estimatedDocumentCount()).toBe(6);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "answers an _id prefix range from the index, in _id order up to skip + limit, and counts without decoding",
    () =>
      withEmbeddedDatabase(async (client, database) => {
        const collection = client.db("patch").collection<{ _id: string | number; n: number }>("ranges");
        const keys = Array.from({ length: 30 }, (_, n) => `t${String(n).padStart(3, "0")}`);
        // Outside the range: other strings and a number — none may come back.
        await collection.insertMany([
          ...keys.map((key, n) => ({ _id: key, n })),
          { _id: "s-before", n: -1 },
          { _id: "u-after", n: -2 },
          { _id: 7, n: -3 },
        ]);
        const range = { $gte: "t", $lt: "u" };
        const explained = async (cursor: { explain(): Promise<unknown> }) =>
          JSON.stringify(((await cursor.explain()) as { queryPlanner: unknown }).queryPlanner);
        if (database.backend === "ferretdb") {
          const plan = await explained(collection.find({ _id: range }).sort({ _id: -1 }).limit(3));
          expect(plan).toContain("USING INDEX");
          expect(plan).not.toContain("TEMP B-TREE");
          expect(await explained(collection.find({ _id: { $gte: "t01", $lt: "t02" } }))).toContain(
            "USING INDEX",
          );
          // Not a prefix range: the handler alone decides (no index claimed).
          expect(await explained(collection.find({ _id: { $gte: "t01", $lt: "t05" } }))).not.toContain(
            "USING INDEX",
          );
        }
        const ids = async (cursor: { toArray(): Promise<{ _id: unknown }[]> }) =>
          (await cursor.toArray()).map((doc) => doc._id);
        expect(await ids(collection.find({ _id: range }).sort({ _id: -1 }).limit(3))).toEqual([
          "t029",
          "t028",
          "t027",
        ]);
        expect(await ids(collection.find({ _id: range }).sort({ _id: 1 }).skip(27).limit(5))).toEqual([
          "t027",
          "t028",
          "t029",
        ]);
        expect(await ids(collection.find({ _id: { $gte: "t01", $lt: "t02" } }).sort({ _id: -1 }))).toEqual(
          keys.slice(10, 20).reverse(),
        );
        // Another condition beside the range: no limit is pushed down, the handler filters first.
        expect(
          await ids(
            collection
              .find({ _id: range, n: { $gte: 27 } })
              .sort({ _id: 1 })
              .limit(2),
          ),
        ).toEqual(["t027", "t028"]);
        // A string whose JSON has an escape is still found by the range (the order pushdown's
        // precondition, ferretdb-patch.ts 3, is about its position, not its presence).
        await collection.insertOne({ _id: 't"quoted', n: -4 });
        expect(await ids(collection.find({ _id: { $gte: "t", $lt: "u" }, n: -4 }))).toEqual(['t"quoted']);
        expect(await collection.estimatedDocumentCount()).toBe(34);
        expect(await collection.countDocuments({})).toBe(34);
        expect(await client.db("patch").collection("none").estimatedDocumentCount()).toBe(0);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "reads an _id prefix range in MongoDB's order (UTF-8 bytes) up to skip + limit, whatever characters JSON escapes",
    () =>
      withEmbeddedDatabase(async (client) => {
        const collection = client.db("patch").collection<{ _id: string }>("escaped");
        // Characters JSON escapes (", \, NUL and other control characters, <, >, & and U+2028 in
        // Go's encoder), the two below the closing quote (space, !), and UTF-8 of 2, 3 and 4 bytes.
        const inRange = [
          "t",
          "t!",
          "t\u0000",
          "ta\u0000b",
          "t ",
          "t#",
          't"',
          "t\\",
          "t\u0001",
          "t\t",
          "t\u001f",
          "t\u007f",
          "té",
          "t😀",
          "t\uff01",
          "t<",
          "t>",
          "t&",
          "t\u2028",
          "ta",
          'ta"b',
          "ta\\b",
          "ta!",
          "ta ",
          "tz",
          "t}",
          "t~",
        ];
        await collection.insertMany([...inRange, "s", "u", "s~"].map((_id) => ({ _id })));
        // MongoDB compares strings by their UTF-8 bytes (not by UTF-16 code units: 😀 > U+FF01).
        const ascending = [...inRange].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
        const range = { $gte: "t", $lt: "u" };
        const read = async (direction: 1 | -1, skip: number, limit: number) =>
          (
            await collection.find({ _id: range }).sort({ _id: direction }).skip(skip).limit(limit).toArray()
          ).map((doc) => doc._id);
        for (const direction of [1, -1] as const) {
          const expected = direction === 1 ? ascending : [...ascending].reverse();
          for (const skip of [0, 1, 4]) {
            for (let limit = 1; limit <= inRange.length; limit++) {
              expect({ direction, skip, limit, ids: await read(direction, skip, limit) }).toEqual({
                direction,
                skip,
                limit,
                ids: expected.slice(skip, skip + limit),
              });
            }
          }
        }

        // Only strings lie in a string range: an ObjectId's hex text or a document's JSON text that
        // starts with the prefix must not take a place of the limit.
        const mixed = client.db("patch").collection<{ _id: unknown }>("mixed");
        await mixed.insertMany([
          { _id: new ObjectId("a0a0a0a0a0a0a0a0a0a0a0a0") },
          { _id: { a: 1 } },
          { _id: "a1" },
          { _id: "a2" },
          { _id: "{1" },
        ]);
        const first = async (filter: object) =>
          (await mixed.find(filter).sort({ _id: 1 }).limit(1).toArray()).map((doc) => doc._id);
        expect(await first({ _id: { $gte: "a", $lt: "b" } })).toEqual(["a1"]);
        expect(await first({ _id: { $gte: "{", $lt: "|" } })).toEqual(["{1"]);

        // A collection dropped and created again has lost the index of its ids' text: it is made again.
        await mixed.drop();
        await mixed.insertMany([{ _id: "a2" }, { _id: "a!" }, { _id: "a" }]);
        expect(await first({ _id: { $gte: "a", $lt: "b" } })).toEqual(["a"]);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "makes the index of a table's first prefix read while writers commit beside it: every read and write answers",
    () =>
      withEmbeddedDatabase(async (client) => {
        // The index is a schema change on the read path; writers committing while it waits for the
        // lock once made it fail with SQLITE_BUSY (a 500 of admin list-users in a full CI run).
        const failures: string[] = [];
        for (let round = 0; round < 12; round++) {
          const db = client.db(`first_read_${round}`);
          const timeline = db.collection<{ _id: string }>("timeline");
          const writes = db.collection<{ _id: string }>("writes");
          await timeline.insertMany(Array.from({ length: 20 }, (_, n) => ({ _id: `t|${n + 10}` })));
          const results = await Promise.allSettled([
            timeline
              .find({ _id: { $gte: "t|", $lt: "t}" } })
              .sort({ _id: -1 })
              .limit(3)
              .toArray(),
            timeline.estimatedDocumentCount(),
            ...Array.from({ length: 6 }, (_, n) => writes.insertOne({ _id: `w${n}` })),
            ...Array.from({ length: 3 }, (_, n) => timeline.insertOne({ _id: `x|${n}` })),
          ]);
          for (const result of results)
            if (result.status === "rejected") failures.push(String(result.reason));
          const first = results[0];
          if (first?.status === "fulfilled")
            expect(first.value.map((doc) => doc._id)).toEqual(["t|29", "t|28", "t|27"]);
        }
        expect(failures).toEqual([]);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );

  it(
    "answers the first counts and ordered reads of six collections of one database side by side: each sets up its triggers and index",
    () =>
      withEmbeddedDatabase(async (client) => {
        // Each first count creates its table's triggers in a transaction; two at once in one database
        // failed with SQLITE_BUSY (admin list-users counts users and the timeline together: a 500).
        const failures: string[] = [];
        for (let round = 0; round < 20; round++) {
          const db = client.db(`first_counts_${round}`);
          const names = Array.from({ length: 6 }, (_, n) => `c${n}`);
          for (const [n, name] of names.entries())
            await db
              .collection<{ _id: string }>(name)
              .insertMany(Array.from({ length: n + 1 }, (_, k) => ({ _id: `a|${k}` })));
          const results = await Promise.allSettled(
            names.flatMap((name) => {
              const collection = db.collection<{ _id: string }>(name);
              return [
                collection.estimatedDocumentCount(),
                collection
                  .find({ _id: { $gte: "a|", $lt: "a}" } })
                  .sort({ _id: -1 })
                  .limit(1)
                  .toArray(),
              ];
            }),
          );
          for (const result of results)
            if (result.status === "rejected") failures.push(String(result.reason));
          const answers = results.map((result) => (result.status === "fulfilled" ? result.value : null));
          expect(answers).toEqual(names.flatMap((_, n) => [n + 1, [{ _id: `a|${n}` }]]));
        }
        expect(failures).toEqual([]);
      }),
    FIRST_BUILD_TIMEOUT_MS,
  );
});
