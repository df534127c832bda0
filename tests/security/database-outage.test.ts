import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { type Auth, createAuth } from "@tessera/auth-core";
import { MongoClient } from "mongodb";
import { afterEach, describe, expect, inject, it } from "vitest";
import { CuttableProxy } from "#test/cuttable-proxy.ts";
import { TEST_ORIGIN, TEST_SECRET } from "#test/test-auth.ts";
import { expectCatalogueError, expectNoSessionIssued, PASSWORD, postJsonText, sendRaw } from "./helpers.ts";

/**
 * Matrix N1 / L8: the database unreachable → 503 SERVICE_UNAVAILABLE within the configured server
 * selection timeout (2 s), no cookie, nothing leaked; back → the same instance works, no restart.
 */
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const SELECTION_TIMEOUT_MS = 2000;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const signInBody = JSON.stringify({ email: "ada@example.com", password: PASSWORD });

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await run();
  return { result, ms: Date.now() - started };
}

/** Signs Ada up on a working database; returns her session cookies as a Cookie header. */
async function signUpAda(auth: Auth): Promise<string> {
  const up = await postJsonText(
    auth,
    "/sign-up/email",
    JSON.stringify({ name: "Ada", email: "ada@example.com", password: PASSWORD }),
  );
  expect(up.status).toBe(200);
  return up.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

/** An instance whose database was never there: every command waits out the selection timeout. */
async function createAuthOnClosedPort(): Promise<Auth> {
  const auth = createAuth({
    database: {
      uri: `mongodb://127.0.0.1:${await closedPort()}/x`,
      serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS,
    },
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    logger: quiet,
  });
  cleanups.push(() => auth.close());
  return auth;
}

describe("database unreachable", () => {
  it("answers 503 within the selection timeout when the database was never there", async () => {
    const auth = await createAuthOnClosedPort();
    const { result, ms } = await timed(() => postJsonText(auth, "/sign-in/email", signInBody));
    expectCatalogueError(result, 503, "SERVICE_UNAVAILABLE", "Service unavailable");
    expectNoSessionIssued(result.headers);
    expect(result.text).not.toMatch(/Mongo|127\.0\.0\.1|ECONNREFUSED|selection/i);
    expect(ms).toBeGreaterThanOrEqual(SELECTION_TIMEOUT_MS - 100);
    expect(ms).toBeLessThanOrEqual(5000);
  });

  it("makes auth.api throw a typed SERVICE_UNAVAILABLE, never the driver's error", async () => {
    const auth = await createAuthOnClosedPort();
    const call = auth.api.signInEmail({ body: { email: "ada@example.com", password: PASSWORD } });
    await expect(call).rejects.toMatchObject({
      name: "AuthError",
      code: "SERVICE_UNAVAILABLE",
      status: 503,
      message: "Service unavailable",
    });
  });

  it("answers 503 while the database is gone and recovers without a restart", async () => {
    const target = new URL(inject("mongoUri"));
    const proxy = new CuttableProxy(target.hostname, Number(target.port));
    await proxy.start();
    cleanups.push(() => proxy.cut());
    const dbName = `t_${randomBytes(6).toString("hex")}`;
    const auth: Auth = createAuth({
      database: {
        uri: `mongodb://127.0.0.1:${proxy.port}/${dbName}`,
        serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS,
      },
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      logger: quiet,
    });
    cleanups.push(() => auth.close());
    cleanups.push(async () => {
      await proxy.start().catch(() => {});
      await auth.context.collections.db.dropDatabase();
    });
    await auth.migrate();
    const cookie = await signUpAda(auth);

    await proxy.cut();
    const down = await timed(() => postJsonText(auth, "/sign-in/email", signInBody));
    expectCatalogueError(down.result, 503, "SERVICE_UNAVAILABLE", "Service unavailable");
    expectNoSessionIssued(down.result.headers);
    expect(down.ms).toBeLessThanOrEqual(5000);
    const session = await timed(() => sendRaw(auth, "GET", "/get-session", { headers: { cookie } }));
    expectCatalogueError(session.result, 503, "SERVICE_UNAVAILABLE", "Service unavailable");
    // An outage is not a sign-out: the cookie is not cleared.
    expect(session.result.headers.getSetCookie()).toEqual([]);
    expect(session.ms).toBeLessThanOrEqual(5000);

    await proxy.start();
    const again = await postJsonText(auth, "/sign-in/email", signInBody);
    expect(again.status).toBe(200);
    const after = await sendRaw(auth, "GET", "/get-session", { headers: { cookie } });
    expect((after.json as { user: { email: string } }).user.email).toBe("ada@example.com");
  });
});

/**
 * Matrix N3: a database that hangs (connections open, no answers) is bounded by
 * advanced.requestTimeoutMs, whether Tessera opened the client or the app passed its own Db (whose
 * driver defaults would wait 30 s or more).
 */
describe("database hanging", () => {
  const REQUEST_TIMEOUT_MS = 1500;

  async function startFrozenSetup(database: "uri" | "app-client") {
    const target = new URL(inject("mongoUri"));
    const proxy = new CuttableProxy(target.hostname, Number(target.port));
    await proxy.start();
    cleanups.push(() => proxy.cut());
    const dbName = `t_${randomBytes(6).toString("hex")}`;
    const uri = `mongodb://127.0.0.1:${proxy.port}/${dbName}`;
    const appClient = database === "app-client" ? new MongoClient(uri) : null;
    if (appClient) cleanups.push(() => appClient.close());
    const auth: Auth = createAuth({
      database: appClient ? appClient.db(dbName) : { uri, serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS },
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      logger: quiet,
      advanced: { requestTimeoutMs: REQUEST_TIMEOUT_MS, providerTimeoutMs: 1000 },
    });
    cleanups.push(() => auth.close());
    cleanups.push(async () => {
      proxy.thaw();
      await auth.context.collections.db.dropDatabase();
    });
    await auth.migrate();
    const cookie = await signUpAda(auth);
    return { auth, proxy, cookie };
  }

  for (const database of ["uri", "app-client"] as const) {
    it(`answers 503 within requestTimeoutMs and recovers when the database answers again (${database})`, async () => {
      const { auth, proxy, cookie } = await startFrozenSetup(database);
      proxy.freeze();
      const hung = await timed(() =>
        sendRaw(auth, "GET", "/get-session?disableCookieCache=true", { headers: { cookie } }),
      );
      expectCatalogueError(hung.result, 503, "SERVICE_UNAVAILABLE", "Service unavailable");
      expect(hung.result.headers.getSetCookie()).toEqual([]);
      expect(hung.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(hung.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
      const call = auth.api.getSession({ headers: { cookie } });
      await expect(call).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });

      proxy.thaw();
      const after = await sendRaw(auth, "GET", "/get-session", { headers: { cookie } });
      expect(after.status).toBe(200);
      expect((after.json as { user: { email: string } }).user.email).toBe("ada@example.com");
    });
  }
});
