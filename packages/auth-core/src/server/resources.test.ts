import { describe, expect, it } from "vitest";
import { readServerEnv } from "./env-config.ts";
import { buildAuthOptions, SERVER_SELECTION_TIMEOUT_MS } from "./resources.ts";

/**
 * The standalone server's own database client answers 503 within 2 s while the database is down
 * (measured under load by tests/reliability, the database-down scenario).
 */
describe("the standalone server's database options", () => {
  it("select a server for at most 500 ms, unless the config module brings its own database", async () => {
    const settings = readServerEnv({
      MONGODB_URI: "mongodb://127.0.0.1:9/app",
      TESSERA_SECRET: "s".repeat(32),
    });
    const context = { cwd: "/", env: {}, log: () => {}, printMail: () => {} };
    const owned = () => ({ database: null, smtp: null, outbox: null });
    const built = await buildAuthOptions(settings, {}, owned(), context);
    expect(SERVER_SELECTION_TIMEOUT_MS).toBe(500);
    expect(built.database).toEqual({
      uri: "mongodb://127.0.0.1:9/app",
      dbName: undefined,
      serverSelectionTimeoutMS: 500,
    });
    const custom = { uri: "mongodb://127.0.0.1:9/other", serverSelectionTimeoutMS: 5000 };
    const withOwn = await buildAuthOptions(settings, { database: custom }, owned(), context);
    expect(withOwn.database).toBeUndefined();
  });
});
