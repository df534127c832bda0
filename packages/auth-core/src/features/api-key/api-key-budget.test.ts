import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, createTestAuth, type SignedIn, signedIn, type TestAuth } from "#test/api-key.ts";
import { TestBrowser } from "#test/browser.ts";
import type { CreatedApiKey } from "./types.ts";

/**
 * Database commands per API-key operation (docs/architecture.md: count them and keep the count in a test).
 * Engine-wide rate limiting is off here (createTestAuth's default); the per-key rate limit is the
 * key's own and is counted. FerretDB v1 full-scans non-`_id` lookups, so each command here is
 * behind an index of 0006-api-key-indexes (or is an `_id` range).
 */
describe("database commands per API-key operation", () => {
  let t: TestAuth;
  let ada: SignedIn;
  let limited: CreatedApiKey;
  let unlimited: CreatedApiKey;
  const SESSION_READ = ["find:sessions", "find:users"];

  beforeAll(async () => {
    t = await createTestAuth({ apiKey: { enableSessionForAPIKeys: true } });
    ada = await signedIn(t);
    limited = await createKey(t, { userId: ada.userId, remaining: 100, rateLimitMax: 100 });
    unlimited = await createKey(t, { userId: ada.userId, rateLimitEnabled: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it("create over HTTP: the session read and one insert", async () => {
    const commands = await t.commands(() => ada.browser.post("/api-key/create", { name: "b" }));
    expect(commands).toEqual([...SESSION_READ, "insert:apiKeys"]);
  });

  it("verify of a key with usage and rate limits: key, owner, rate-limit claim, use claim", async () => {
    const commands = await t.commands(() => t.auth.api.verifyApiKey({ body: { key: limited.key } }));
    expect(commands).toEqual([
      "find:apiKeys",
      "find:users",
      // One insert, no read: the limiter knows its free slot (security-hardening issue, finding 1).
      "insert:rateLimits",
      "find:apiKeyUses",
      "insert:apiKeyUses",
    ]);
  });

  it("verify of an unlimited key: the key and its owner only", async () => {
    const commands = await t.commands(() => t.auth.api.verifyApiKey({ body: { key: unlimited.key } }));
    expect(commands).toEqual(["find:apiKeys", "find:users"]);
  });

  it("an x-api-key request resolves its caller with the same two reads, and no session read", async () => {
    const client = new TestBrowser(t.auth, null);
    const commands = await t.commands(() =>
      client.post("/update-user", { name: "K" }, { headers: { "x-api-key": unlimited.key } }),
    );
    expect(commands.slice(0, 2)).toEqual(["find:apiKeys", "find:users"]);
    expect(commands).not.toContain("find:sessions");
  });

  it("get: the session read, the key, and one read of its use count when limited", async () => {
    const unlimitedGet = await t.commands(() => ada.browser.get(`/api-key/get?id=${unlimited.id}`));
    expect(unlimitedGet).toEqual([...SESSION_READ, "find:apiKeys"]);
    const limitedGet = await t.commands(() => ada.browser.get(`/api-key/get?id=${limited.id}`));
    expect(limitedGet).toEqual([...SESSION_READ, "find:apiKeys", "find:apiKeyUses"]);
  });

  it("list: the session read, the page, the total, and one use-count read per limited key", async () => {
    const commands = await t.commands(() => ada.browser.get("/api-key/list"));
    expect(commands.slice(0, 2)).toEqual(SESSION_READ);
    expect(commands.slice(2).sort()).toEqual(["aggregate:apiKeys", "find:apiKeyUses", "find:apiKeys"]);
  });
});
