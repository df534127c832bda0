import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createAuth } from "@tessera/auth-core";
import { type CommandStartedEvent, MongoClient } from "mongodb";
import { afterEach, describe, expect, inject, it } from "vitest";
import { CuttableProxy } from "#test/cuttable-proxy.ts";
import { createTestAuth, TEST_ORIGIN, TEST_SECRET, type TestAuth } from "#test/test-auth.ts";
import { expectCatalogueError, type RawResult, sendRaw } from "./helpers.ts";

/**
 * One client could stall the service through the rate limiter
 * (N concurrent requests on one key cost O(N²) database commands, kept running past the request
 * deadline, on a log that only the hourly cleanup shrank). docs/security.md "Rate limiting".
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function limitedAuth(customRules: Record<string, { window: number; max: number }> = {}) {
  const t = await createTestAuth({ rateLimit: { enabled: true, customRules } }, { frozen: true });
  cleanups.push(() => t.close());
  return t;
}

/** Moves the frozen clock to `offset` seconds after the start of the next `window`-second window. */
function alignToWindow(t: TestAuth, window: number, offset = 1) {
  const intoWindow = (t.now().getTime() % (window * 1000)) / 1000;
  t.advance(window - intoWindow + offset);
}

const ok = (t: TestAuth, remoteAddress = "192.0.2.77") => sendRaw(t.auth, "GET", "/ok", { remoteAddress });

function expectRefused(res: RawResult) {
  expectCatalogueError(res, 429, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.");
  expect(Number(res.headers.get("x-retry-after"))).toBeGreaterThanOrEqual(1);
}

describe("rate limiter under a burst from one client", () => {
  it("admits exactly max of 200 concurrent requests on one path at one database command per request at most", async () => {
    const t = await limitedAuth();
    let results: RawResult[] = [];
    const commands = await t.commands(async () => {
      results = await Promise.all(Array.from({ length: 200 }, () => ok(t)));
    });
    // The default rule: 100 per 10 s.
    expect(results.filter((res) => res.status === 200)).toHaveLength(100);
    const refused = results.filter((res) => res.status !== 200);
    expect(refused).toHaveLength(100);
    for (const res of refused) expectRefused(res);
    // One insert per admission, nothing for a refusal: the cost does not grow with the burst.
    expect(commands.length).toBeLessThanOrEqual(200);
    expect(commands.filter((command) => command === "insert:rateLimits")).toHaveLength(100);
    expect(await t.db.collection("rateLimits").countDocuments()).toBe(100);
  });

  it("admits exactly max of a concurrent burst spread over two instances on one database", async () => {
    const t = await limitedAuth({ "/ok": { window: 10, max: 20 } });
    const other = createAuth({
      database: t.db,
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      clock: t.now,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      rateLimit: { enabled: true, customRules: { "/ok": { window: 10, max: 20 } } },
    });
    alignToWindow(t, 10);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        sendRaw(i % 2 === 0 ? t.auth : other, "GET", "/ok", { remoteAddress: "192.0.2.79" }),
      ),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(20);
    for (const res of results.filter((res) => res.status !== 200)) expectRefused(res);
  });

  it("refuses the rest of the window without any database command", async () => {
    const t = await limitedAuth({ "/ok": { window: 10, max: 3 } });
    for (let i = 0; i < 3; i++) expect((await ok(t)).status).toBe(200);
    let results: RawResult[] = [];
    const commands = await t.commands(async () => {
      results = await Promise.all(Array.from({ length: 50 }, () => ok(t)));
    });
    for (const res of results) expectRefused(res);
    expect(commands).toEqual([]);
  });

  it("removes the rows of an expired window at the client's next admission, without auth.cleanup()", async () => {
    const t = await limitedAuth({ "/ok": { window: 10, max: 3 } });
    const rows = () => t.db.collection("rateLimits").find().toArray();
    alignToWindow(t, 10);
    for (let i = 0; i < 3; i++) expect((await ok(t)).status).toBe(200);
    const firstWindow = (await rows()).map((row) => row._id);
    expect(firstWindow).toHaveLength(3);
    // The next window: the first one's admissions still count in the trailing 10 s, so they stay.
    t.advance(9.5);
    expectRefused(await ok(t)); // half a second into the next window, the three are 9.5 s old
    t.advance(0.5);
    expect((await ok(t)).status).toBe(200);
    // Two windows on, every admission of the first is over 10 s old: they go with the next admission.
    t.advance(10);
    expect((await ok(t)).status).toBe(200);
    const left = (await rows()).map((row) => row._id);
    expect(left).toHaveLength(2);
    for (const id of firstWindow) expect(left).not.toContain(id);
  });
});

describe("rate limiter at the request deadline", () => {
  it("sends no further database command for a request already answered 503", async () => {
    const target = new URL(inject("mongoUri"));
    const proxy = new CuttableProxy(target.hostname, Number(target.port));
    await proxy.start();
    cleanups.push(() => proxy.cut());
    const dbName = `t_${randomBytes(6).toString("hex")}`;
    const client = new MongoClient(`mongodb://127.0.0.1:${proxy.port}/${dbName}`, { monitorCommands: true });
    cleanups.push(() => client.close());
    const auth = createAuth({
      database: client.db(dbName),
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      rateLimit: { enabled: true },
      advanced: { requestTimeoutMs: 300, providerTimeoutMs: 200 },
    });
    cleanups.push(async () => {
      proxy.thaw();
      await client.db(dbName).dropDatabase();
    });
    await auth.migrate();
    let late: string[] | null = null;
    client.on("commandStarted", (event: CommandStartedEvent) => {
      if (late && !["hello", "ismaster", "isMaster", "ping"].includes(event.commandName)) {
        late.push(`${event.commandName}:${String(event.command[event.commandName])}`);
      }
    });

    proxy.freeze();
    const signIn = await sendRaw(auth, "POST", "/sign-in/email", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: "wrong password" }),
      remoteAddress: "192.0.2.78",
    });
    expectCatalogueError(signIn, 503, "SERVICE_UNAVAILABLE", "Service unavailable");
    // The limiter's claim was already on the wire; once it lands, nothing else may follow it.
    late = [];
    proxy.thaw();
    await sleep(500);
    expect(late).toEqual([]);
  });
});
