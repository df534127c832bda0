import { once } from "node:events";
import { createServer, connect as netConnect } from "node:net";
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

  it("counts the socket error the driver passes through when the database ended the connection", async () => {
    // The error a write raises once the other side has closed: what the driver let through when
    // the database process was killed under load (a 500 in the reliability suite's outage).
    const server = createServer((socket) => socket.end());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const socket = netConnect((server.address() as { port: number }).port, "127.0.0.1");
    await once(socket, "end");
    const failed = once(socket, "error");
    socket.write("ping");
    const [error] = (await failed) as [NodeJS.ErrnoException];
    server.close();
    expect(error.code).toBe("EPIPE");
    expect(isCausedByDatabaseOutage(error)).toBe(true);
    expect(isCausedByDatabaseOutage(new Error("wrapped", { cause: error }))).toBe(true);
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(isCausedByDatabaseOutage(reset)).toBe(true);
  });

  it("does not count other server errors (a duplicate key, a bad query) as an outage", () => {
    for (const code of [11000, 2, 121]) expect(isCausedByDatabaseOutage(serverError(code))).toBe(false);
    expect(isCausedByDatabaseOutage(new TypeError("x"))).toBe(false);
    const otherSystemError = Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" });
    expect(isCausedByDatabaseOutage(otherSystemError)).toBe(false);
  });
});
