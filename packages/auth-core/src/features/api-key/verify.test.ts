import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createKey, signedIn, verifyKey } from "#test/api-key.ts";
import { TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

const uses = () => t.db.collection("apiKeyUses");
const NO_RATE_LIMIT = { rateLimitEnabled: false };

describe("auth.api.verifyApiKey", () => {
  it("answers valid with the key (never the secret) and an unknown key with invalid", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, name: "ci" });
    const ok = await verifyKey(t, created.key);
    expect(ok).toMatchObject({ valid: true, error: null, key: { id: created.id, userId, name: "ci" } });
    expect(JSON.stringify(ok)).not.toContain(created.key);
    for (const wrong of [`${created.key}x`, created.key.slice(0, -1), "", created.start!]) {
      expect(await verifyKey(t, wrong)).toEqual({
        valid: false,
        error: { code: "API_KEY_INVALID", message: "invalid" },
        key: null,
      });
    }
  });

  it("is server-only: over HTTP the path does not exist", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId });
    const res = await new TestBrowser(t.auth).post("/api-key/verify", { key: created.key });
    expect(res.status).toBe(404);
  });

  it("refuses a disabled key, then accepts it once re-enabled", async () => {
    await openAuth();
    const { browser, userId } = await signedIn(t);
    const created = await createKey(t, { userId });
    await browser.post("/api-key/update", { keyId: created.id, enabled: false });
    expect(await verifyKey(t, created.key)).toMatchObject({
      valid: false,
      error: { code: "API_KEY_DISABLED", message: "disabled" },
    });
    await browser.post("/api-key/update", { keyId: created.id, enabled: true });
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
  });

  it("refuses a key once expired (K4), and keeps the row for the owner to see", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, expiresIn: 86400 });
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
    t.advance(86400);
    expect(await verifyKey(t, created.key)).toMatchObject({
      valid: false,
      error: { code: "API_KEY_EXPIRED", message: "expired" },
    });
    expect(await t.db.collection("apiKeys").countDocuments()).toBe(1);
  });

  it("checks permissions: every required action of every resource must be granted", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, {
      userId,
      permissions: { files: ["read", "write"] },
      ...NO_RATE_LIMIT,
    });
    const bare = await createKey(t, { userId, ...NO_RATE_LIMIT });
    expect(await verifyKey(t, created.key, { files: ["read"] })).toMatchObject({ valid: true });
    expect(await verifyKey(t, created.key, { files: ["read", "write"] })).toMatchObject({ valid: true });
    const refused = {
      valid: false,
      error: { code: "RESOURCE_ACCESS_NOT_ALLOWED", message: "not allowed to access resource" },
    };
    expect(await verifyKey(t, created.key, { files: ["delete"] })).toMatchObject(refused);
    expect(await verifyKey(t, created.key, { billing: ["read"] })).toMatchObject(refused);
    expect(await verifyKey(t, created.key, { constructor: ["read"] })).toMatchObject(refused);
    expect(await verifyKey(t, bare.key, { files: ["read"] })).toMatchObject(refused);
  });

  it("refuses a request that mixes granted and ungranted actions (a key granted files:read asked for read and delete)", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const reader = await createKey(t, { userId, permissions: { files: ["read"] }, ...NO_RATE_LIMIT });
    const refused = {
      valid: false,
      error: { code: "RESOURCE_ACCESS_NOT_ALLOWED", message: "not allowed to access resource" },
      key: null,
    };
    expect(await verifyKey(t, reader.key, { files: ["read"] })).toMatchObject({ valid: true });
    expect(await verifyKey(t, reader.key, { files: ["read", "delete"] })).toMatchObject(refused);
    expect(await verifyKey(t, reader.key, { files: ["delete", "read"] })).toMatchObject(refused);
    expect(await verifyKey(t, reader.key, { files: ["read"], billing: ["read"] })).toMatchObject(refused);
  });

  it("refuses the key of a banned user, and of a user that no longer exists", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, ...NO_RATE_LIMIT });
    const users = t.db.collection("users");
    await users.updateOne({ _id: new ObjectId(userId) }, { $set: { banned: true, banExpires: null } });
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: false, error: { code: "BANNED_USER" } });
    await users.updateOne(
      { _id: new ObjectId(userId) },
      { $set: { banExpires: new Date(t.now().getTime() - 1) } },
    );
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
    await users.deleteOne({ _id: new ObjectId(userId) });
    expect(await verifyKey(t, created.key)).toMatchObject({
      valid: false,
      error: { code: "API_KEY_INVALID" },
    });
  });
});

describe("usage limit (remaining, refill)", () => {
  it("counts down remaining and answers usage limit reached at 0", async () => {
    await openAuth();
    const { browser, userId } = await signedIn(t);
    const created = await createKey(t, { userId, remaining: 2, ...NO_RATE_LIMIT });
    expect((await verifyKey(t, created.key)).key).toMatchObject({ remaining: 1 });
    expect((await verifyKey(t, created.key)).key).toMatchObject({ remaining: 0 });
    expect(await verifyKey(t, created.key)).toEqual({
      valid: false,
      error: { code: "API_KEY_USAGE_EXCEEDED", message: "usage limit reached" },
      key: null,
    });
    expect(await uses().countDocuments()).toBe(2);
    const shown = await browser.get(`/api-key/get?id=${created.id}`);
    expect(shown.body).toMatchObject({ remaining: 0 });
  });

  it("refills to refillAmount every refillInterval (fixed periods from the budget's start)", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, {
      userId,
      remaining: 1,
      refillAmount: 2,
      refillInterval: 60_000,
      ...NO_RATE_LIMIT,
    });
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
    expect(await verifyKey(t, created.key)).toMatchObject({ error: { code: "API_KEY_USAGE_EXCEEDED" } });
    t.advance(60);
    expect((await verifyKey(t, created.key)).key).toMatchObject({ remaining: 1 });
    expect((await verifyKey(t, created.key)).key).toMatchObject({ remaining: 0 });
    expect(await verifyKey(t, created.key)).toMatchObject({ error: { code: "API_KEY_USAGE_EXCEEDED" } });
    // Unused periods do not accumulate: the count is reset to the amount, not added to.
    t.advance(600);
    expect((await verifyKey(t, created.key)).key).toMatchObject({ remaining: 1 });
  });

  it("50 concurrent uses of a key with 10 remaining: exactly 10 succeed (K5, FerretDB)", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, remaining: 10, ...NO_RATE_LIMIT });
    const results = await Promise.all(Array.from({ length: 50 }, () => verifyKey(t, created.key)));
    expect(results.filter((result) => result.valid)).toHaveLength(10);
    const refused = results.filter((result) => !result.valid).map((result) => result.error?.code);
    expect(refused).toEqual(Array(40).fill("API_KEY_USAGE_EXCEEDED"));
    const remainders = results.filter((result) => result.valid).map((result) => result.key!.remaining);
    expect(remainders.sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await uses().countDocuments({ keyId: new ObjectId(created.id) })).toBe(10);
    expect(await verifyKey(t, created.key)).toMatchObject({ error: { code: "API_KEY_USAGE_EXCEEDED" } });
  });
});

describe("per-key rate limit", () => {
  it("answers rate limit exceeded with tryAgainIn past rateLimitMax in the window, then admits again", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
    const limited = await verifyKey(t, created.key);
    expect(limited).toMatchObject({
      valid: false,
      error: { code: "API_KEY_RATE_LIMITED", message: "rate limit exceeded" },
    });
    expect(limited.error!.tryAgainIn).toBeGreaterThan(0);
    expect(limited.error!.tryAgainIn).toBeLessThanOrEqual(60_000);
    t.advance(60);
    expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
  });

  it("uses Better Auth's default of 10 per day for keys created without their own", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId });
    for (let i = 0; i < 10; i++) expect(await verifyKey(t, created.key)).toMatchObject({ valid: true });
    expect(await verifyKey(t, created.key)).toMatchObject({ error: { code: "API_KEY_RATE_LIMITED" } });
  });

  it("30 concurrent uses against a limit of 5: exactly 5 pass, and no usage is spent by the refused", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, {
      userId,
      rateLimitMax: 5,
      rateLimitTimeWindow: 60_000,
      remaining: 100,
    });
    const results = await Promise.all(Array.from({ length: 30 }, () => verifyKey(t, created.key)));
    expect(results.filter((result) => result.valid)).toHaveLength(5);
    expect(results.filter((result) => result.error?.code === "API_KEY_RATE_LIMITED")).toHaveLength(25);
    expect(await uses().countDocuments()).toBe(5);
  });
});
