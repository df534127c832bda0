import { describe, expect, it } from "vitest";
import { connectDatabase } from "./connect.ts";

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
