import { MongoServerError } from "mongodb";
import { describe, expect, it } from "vitest";
import { connectDatabase, isCausedByDatabaseOutage } from "./connect.ts";

/**
 * Issue 16 §3 (tests/reliability): a short server selection timeout answers 503 quickly while the
 * database is down, but must not become the connect timeout, which the driver also applies to its
 * monitoring checks — a check slowed by a busy machine would mark a healthy server unknown.
 */
describe("connectDatabase", () => {
  it("keeps the selection timeout it is given and a connect timeout of at least 10 s", async () => {
    const handle = connectDatabase({ uri: "mongodb://127.0.0.1:9/x", serverSelectionTimeoutMS: 1000 });
    try {
      expect(handle.db.client.options.serverSelectionTimeoutMS).toBe(1000);
      expect(handle.db.client.options.connectTimeoutMS).toBe(10_000);
    } finally {
      await handle.close();
    }
  });

  it("never makes the connect timeout shorter than a longer selection timeout", async () => {
    const handle = connectDatabase({ uri: "mongodb://127.0.0.1:9/x", serverSelectionTimeoutMS: 15_000 });
    try {
      expect(handle.db.client.options.connectTimeoutMS).toBe(15_000);
    } finally {
      await handle.close();
    }
  });
});

describe("isCausedByDatabaseOutage", () => {
  const serverError = (code: number) => new MongoServerError({ ok: 0, code, errmsg: `code ${code}` });

  it("counts a server that is shutting down or stepping down as an outage (answered 503), also when wrapped", () => {
    for (const code of [91, 11600, 189, 10107, 11602])
      expect(isCausedByDatabaseOutage(serverError(code))).toBe(true);
    expect(isCausedByDatabaseOutage(new Error("wrapped", { cause: serverError(91) }))).toBe(true);
  });

  it("does not count other server errors (a duplicate key, a bad query) as an outage", () => {
    for (const code of [11000, 2, 121]) expect(isCausedByDatabaseOutage(serverError(code))).toBe(false);
    expect(isCausedByDatabaseOutage(new TypeError("x"))).toBe(false);
  });
});
