import { randomBytes } from "node:crypto";
import { type Db, MongoClient, MongoServerError, ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { upsertRetryingRace } from "./upsert.ts";

let client: MongoClient;
let db: Db;
beforeAll(async () => {
  client = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  db = client.db(`t_${randomBytes(6).toString("hex")}`);
});
afterAll(async () => {
  await db.dropDatabase().catch(() => {});
  await client.close();
});

const ROUNDS = 50;
const RACERS = 8;

/** `RACERS` upserts of one fresh key at once, `ROUNDS` times: what each round's upserts answered. */
async function raceRounds(upsertKey: (key: string, racer: number) => Promise<unknown>, statements = 1) {
  const failures: unknown[] = [];
  const keys: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const key = `k${round}-${randomBytes(4).toString("hex")}`;
    keys.push(key);
    const settled = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, racer) =>
        upsertRetryingRace(() => upsertKey(key, racer), statements),
      ),
    );
    for (const outcome of settled) if (outcome.status === "rejected") failures.push(outcome.reason);
  }
  return { failures, keys };
}

describe("upsertRetryingRace against the test server", () => {
  it("concurrent updateOne upserts of a fresh `_id` all succeed and leave one document", async () => {
    const versions = db.collection<{ _id: string; version: number }>("versions");
    const { failures, keys } = await raceRounds((key) =>
      versions.updateOne({ _id: key }, { $inc: { version: 1 } }, { upsert: true }),
    );
    expect(failures).toEqual([]);
    for (const key of keys) expect(await versions.countDocuments({ _id: key })).toBe(1);
  });

  it("concurrent replaceOne upserts on a unique field all succeed and leave one document", async () => {
    const rows = db.collection<{ _id?: ObjectId; userId: string; racer: number }>("rows");
    await rows.createIndex({ userId: 1 }, { unique: true });
    const { failures, keys } = await raceRounds((key, racer) =>
      rows.replaceOne({ userId: key }, { userId: key, racer }, { upsert: true }),
    );
    expect(failures).toEqual([]);
    for (const key of keys) expect(await rows.countDocuments({ userId: key })).toBe(1);
  });

  it("concurrent unordered bulk writes of two replaceOne upserts (one command), run up to twice more, all succeed and leave one document each", async () => {
    const pairs = db.collection<{ _id: string; racer: number }>("pairs");
    const { failures, keys } = await raceRounds(
      (key, racer) =>
        pairs.bulkWrite(
          [`${key}:a`, `${key}:b`].map((_id) => ({
            replaceOne: { filter: { _id }, replacement: { _id, racer }, upsert: true },
          })),
          { ordered: false },
        ),
      2,
    );
    expect(failures).toEqual([]);
    for (const key of keys)
      expect(await pairs.countDocuments({ _id: { $in: [`${key}:a`, `${key}:b`] } })).toBe(2);
  });

  it("another error is thrown as it is, after one run", async () => {
    const rows = db.collection<{ _id: ObjectId; n: number }>("invalid");
    const id = new ObjectId();
    let runs = 0;
    const failed = upsertRetryingRace(() => {
      runs++;
      return rows.updateOne({ _id: id }, { $inc: { n: "one" as unknown as number } }, { upsert: true });
    });
    await expect(failed).rejects.toBeInstanceOf(MongoServerError);
    expect(runs).toBe(1);
    expect(await rows.countDocuments({})).toBe(0);
  });
});
