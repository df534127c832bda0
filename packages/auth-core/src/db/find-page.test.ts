import { randomBytes } from "node:crypto";
import {
  MongoClient,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
} from "mongodb";
import { afterEach, describe, expect, inject, it } from "vitest";
import { CuttableProxy } from "#test/cuttable-proxy.ts";
import { findFirst, findPage, isRetryableRead } from "./find-page.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A client on a fresh database of the test server, through a proxy whose connections can drop. */
async function throughProxy() {
  const target = new URL(inject("mongoUri"));
  const proxy = new CuttableProxy(target.hostname, Number(target.port));
  await proxy.start();
  cleanups.push(() => proxy.cut());
  const client = new MongoClient(`mongodb://127.0.0.1:${proxy.port}`, { serverSelectionTimeoutMS: 5000 });
  cleanups.push(() => client.close());
  const db = client.db(`t_${randomBytes(6).toString("hex")}`);
  cleanups.push(() => db.dropDatabase().catch(() => {}));
  return { proxy, db };
}

describe("findFirst and findPage", () => {
  it("answer what findOne and find answer: the document, null, a projection, a sorted page", async () => {
    const { db } = await throughProxy();
    const people = db.collection<{ _id: number; name: string; age: number }>("people");
    await people.insertMany([
      { _id: 1, name: "Ada", age: 36 },
      { _id: 2, name: "Grace", age: 85 },
      { _id: 3, name: "Linus", age: 28 },
    ]);
    expect(await findFirst(people, { _id: 2 })).toEqual(await people.findOne({ _id: 2 }));
    expect(await findFirst(people, { _id: 9 })).toBeNull();
    expect(await findFirst(people, { _id: 1 }, { name: 1 })).toEqual({ _id: 1, name: "Ada" });
    const page = await findPage(people, { filter: {}, sort: { age: -1 }, skip: 1, limit: 2 });
    expect(page.map((person) => person.name)).toEqual(["Ada", "Linus"]);
  });

  it("read again once when the connection drops under them, as the driver's own reads do", async () => {
    const { proxy, db } = await throughProxy();
    const people = db.collection<{ _id: number; name: string }>("people");
    await people.insertOne({ _id: 1, name: "Ada" });
    expect(await findFirst(people, { _id: 1 })).toEqual({ _id: 1, name: "Ada" });
    proxy.dropConnections(); // the pooled connection is dead; the next command meets the reset
    expect(await findFirst(people, { _id: 1 })).toEqual({ _id: 1, name: "Ada" });
    proxy.dropConnections();
    expect(await findPage(people, { filter: {}, limit: 5 })).toEqual([{ _id: 1, name: "Ada" }]);
  });
});

describe("isRetryableRead", () => {
  const serverError = (code: number) => new MongoServerError({ ok: 0, code, errmsg: `code ${code}` });

  it("retries after a dropped connection or a server that is stopping or stepping down", () => {
    expect(isRetryableRead(new MongoNetworkError("connection reset"))).toBe(true);
    for (const code of [91, 11600, 189, 10107, 11602]) expect(isRetryableRead(serverError(code))).toBe(true);
  });

  it("does not retry a selection timeout, a socket timeout or an error of the query itself", () => {
    expect(isRetryableRead(new MongoServerSelectionError("no server", {} as never))).toBe(false);
    expect(isRetryableRead(new MongoNetworkTimeoutError("timed out"))).toBe(false);
    for (const code of [11000, 2, 121]) expect(isRetryableRead(serverError(code))).toBe(false);
    expect(isRetryableRead(new TypeError("x"))).toBe(false);
  });
});
