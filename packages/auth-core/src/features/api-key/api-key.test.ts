import { createHash } from "node:crypto";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createKey, signedIn } from "#test/api-key.ts";
import { TestBrowser } from "#test/browser.ts";
import { dumpDatabase } from "#test/database.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { deleteExpiredKeyUses, deleteUserApiKeys } from "./store.ts";
import type { ApiKey, CreatedApiKey } from "./types.ts";

const { t, openAuth } = useTestAuthPerTest();

const keys = () => t.db.collection("apiKeys");
const NOT_FOUND = { code: "API_KEY_NOT_FOUND", message: "not found" };
const NOT_AUTHORIZED = { code: "NOT_AUTHORIZED", message: "Not authorized" };
const UNAUTHORIZED = { code: "UNAUTHORIZED", message: "unauthorized" };

describe("POST /api-key/create", () => {
  it("returns the key once; only its SHA-256 hash and a 6-character start are stored", async () => {
    await openAuth();
    const { browser, userId } = await signedIn(t);
    const res = await browser.post<CreatedApiKey>("/api-key/create", {
      name: "ci",
      prefix: "tess_",
      metadata: { team: "core", tags: ["a"] },
    });
    expect(res.status).toBe(200);
    const key = res.body.key;
    expect(key).toMatch(/^tess_[A-Za-z0-9]{64}$/);
    expect(res.body).toMatchObject({
      userId,
      name: "ci",
      prefix: "tess_",
      start: key.slice(0, 6),
      enabled: true,
      // The 90-day default (apiKey.keyExpiration.defaultExpiresIn; security-hardening finding 3).
      expiresAt: new Date(new Date(res.body.createdAt).getTime() + 90 * 86400 * 1000).toISOString(),
      remaining: null,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 86_400_000,
      rateLimitMax: 10,
      permissions: null,
      metadata: { team: "core", tags: ["a"] },
    });
    const doc = await keys().findOne({ _id: new ObjectId(res.body.id) });
    expect(doc!.keyHash).toBe(createHash("sha256").update(key).digest("base64url"));
    expect(doc!.userId.toHexString()).toBe(userId);
    expect(await dumpDatabase(t.db)).not.toContain(key.slice(5));
    // Shown once: nothing that reads keys afterwards carries it or its hash.
    const got = await browser.get<ApiKey>(`/api-key/get?id=${res.body.id}`);
    expect(JSON.stringify(got.body)).not.toContain(key.slice(5));
    expect(JSON.stringify(got.body)).not.toContain(doc!.keyHash);
  });

  it("sets expiresAt from expiresIn within 1–365 days, refusing values outside with 400", async () => {
    await openAuth();
    const { browser } = await signedIn(t);
    const ok = await browser.post<CreatedApiKey>("/api-key/create", { expiresIn: 86400 });
    expect(ok.status).toBe(200);
    const lifetime = new Date(ok.body.expiresAt!).getTime() - new Date(ok.body.createdAt).getTime();
    expect(lifetime).toBe(86_400_000);
    const small = await browser.post("/api-key/create", { expiresIn: 86399 });
    expect(small.status).toBe(400);
    expect(small.body).toEqual({
      code: "API_KEY_EXPIRES_IN_TOO_SMALL",
      message: "The expiresIn is smaller than the predefined minimum value.",
    });
    const large = await browser.post("/api-key/create", { expiresIn: 365 * 86400 + 1 });
    expect(large.status).toBe(400);
    expect(large.body).toEqual({
      code: "API_KEY_EXPIRES_IN_TOO_LARGE",
      message: "The expiresIn is larger than the predefined maximum value.",
    });
    expect(await keys().countDocuments()).toBe(1);
  });

  it("without a session answers 401, even naming a victim's userId (K1, CVE-2025-61928)", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const anonymous = new TestBrowser(t.auth);
    for (const body of [{}, { userId }, { userId, name: "x" }]) {
      const res = await anonymous.post("/api-key/create", body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    expect(await keys().countDocuments()).toBe(0);
  });

  it.each<[string, Record<string, unknown>]>([
    ["userId", { userId: "0123456789abcdef01234567" }],
    ["remaining", { remaining: 100 }],
    ["remaining (null)", { remaining: null }],
    ["refillAmount", { refillAmount: 10, refillInterval: 60_000 }],
    ["rateLimitEnabled", { rateLimitEnabled: false }],
    ["rateLimitTimeWindow", { rateLimitTimeWindow: 1000 }],
    ["rateLimitMax", { rateLimitMax: 1000 }],
    ["permissions", { permissions: { files: ["read"] } }],
  ])("a client setting the server-only %s answers 403 Not authorized (K2)", async (_field, fields) => {
    await openAuth();
    const { browser } = await signedIn(t);
    const res = await browser.post("/api-key/create", { name: "x", ...fields });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(NOT_AUTHORIZED);
    expect(await keys().countDocuments()).toBe(0);
  });

  it.each([
    ["metadata as an array", { metadata: ["a"] }],
    ["metadata as a string", { metadata: '{"a":1}' }],
    ["metadata as a number", { metadata: 5 }],
    ["metadata too large", { metadata: { blob: "x".repeat(5000) } }],
    ["an operator object as name", { name: { $ne: null } }],
    ["an empty name", { name: "   " }],
    ["a 33-character name", { name: "n".repeat(33) }],
    ["a prefix with a space", { prefix: "my key" }],
    ["a 33-character prefix", { prefix: "p".repeat(33) }],
    ["expiresIn as a string", { expiresIn: "86400" }],
    ["an unknown field", { key: "chosen-by-me" }],
  ])("refuses %s with 400 and stores nothing", async (_label, body) => {
    await openAuth();
    const { browser } = await signedIn(t);
    const res = await browser.post<{ code: string }>("/api-key/create", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(await keys().countDocuments()).toBe(0);
  });

  it("server code may create a key for any existing user, with limits and permissions", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, {
      userId,
      remaining: 5,
      refillAmount: 5,
      refillInterval: 3_600_000,
      rateLimitMax: 100,
      permissions: { files: ["read", "write"] },
    });
    expect(created).toMatchObject({
      userId,
      remaining: 5,
      refillAmount: 5,
      refillInterval: 3_600_000,
      rateLimitMax: 100,
      permissions: { files: ["read", "write"] },
    });
    await expect(
      t.auth.api.createApiKey({ body: { userId: new ObjectId().toHexString() } }),
    ).rejects.toMatchObject({ code: "USER_NOT_FOUND", status: 404 });
    await expect(t.auth.api.createApiKey({ body: {} })).rejects.toMatchObject({
      code: "USER_ID_OR_SESSION_REQUIRED",
      status: 400,
    });
    await expect(t.auth.api.createApiKey({ body: { userId, refillAmount: 5 } })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    expect(await keys().countDocuments()).toBe(1);
  });
});

describe("GET /api-key/get and /api-key/list", () => {
  it("show the caller's own keys only; another user's key is 404 like a missing one (K3)", async () => {
    await openAuth();
    const ada = await signedIn(t);
    const bob = await signedIn(t, "bob@example.com");
    const adaKey = (await ada.browser.post<CreatedApiKey>("/api-key/create", { name: "ada" })).body;
    await bob.browser.post("/api-key/create", { name: "bob" });
    const own = await ada.browser.get<ApiKey>(`/api-key/get?id=${adaKey.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: adaKey.id, name: "ada", start: adaKey.start });
    expect(own.body).not.toHaveProperty("key");
    for (const id of [adaKey.id, new ObjectId().toHexString(), "not-an-id", '{"$ne":null}']) {
      const res = await bob.browser.get(`/api-key/get?id=${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    const list = await bob.browser.get<{ apiKeys: ApiKey[]; total: number }>("/api-key/list");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.apiKeys.map((key) => key.name)).toEqual(["bob"]);
  });

  it("list paginates newest first with the total; limit above 100 is refused", async () => {
    await openAuth();
    const { browser } = await signedIn(t);
    for (const name of ["one", "two", "three"]) {
      await browser.post("/api-key/create", { name });
      t.advance(1);
    }
    const page = await browser.get<{ apiKeys: ApiKey[]; total: number; limit: number; offset: number }>(
      "/api-key/list?limit=2&offset=1",
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.body.apiKeys.map((key) => key.name)).toEqual(["two", "one"]);
    expect((await browser.get("/api-key/list?limit=101")).status).toBe(400);
  });

  it("answer 401 without a session and never take the key from the query string", async () => {
    await openAuth({ apiKey: { enableSessionForAPIKeys: true } });
    const { browser } = await signedIn(t);
    const { key } = (await browser.post<CreatedApiKey>("/api-key/create", {})).body;
    const anonymous = new TestBrowser(t.auth);
    expect((await anonymous.get("/api-key/list")).body).toEqual(UNAUTHORIZED);
    for (const query of [`x-api-key=${key}`, `apiKey=${key}`, `key=${key}`]) {
      const res = await anonymous.get(`/api-key/list?${query}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).not.toContain('"apiKeys"');
    }
  });
});

describe("POST /api-key/update", () => {
  it("changes name, enabled, metadata and expiry of the caller's key", async () => {
    await openAuth();
    const { browser } = await signedIn(t);
    const created = (await browser.post<CreatedApiKey>("/api-key/create", { name: "a", expiresIn: 86400 }))
      .body;
    t.advance(5);
    const res = await browser.post<ApiKey>("/api-key/update", {
      keyId: created.id,
      name: "b",
      enabled: false,
      metadata: { env: "prod" },
      expiresIn: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "b", enabled: false, metadata: { env: "prod" }, expiresAt: null });
    const doc = await keys().findOne({ _id: new ObjectId(created.id) });
    expect(doc).toMatchObject({ name: "b", enabled: false, metadata: '{"env":"prod"}', expiresAt: null });
    expect(doc!.updatedAt.getTime() - doc!.createdAt.getTime()).toBeGreaterThanOrEqual(5000);
    expect(doc!.keyHash).toBe(createHash("sha256").update(created.key).digest("base64url"));
  });

  it("refuses no session (401), another user's key (404), server-only fields (403), an empty update (400); nothing changes", async () => {
    await openAuth();
    const ada = await signedIn(t);
    const bob = await signedIn(t, "bob@example.com");
    const created = (await ada.browser.post<CreatedApiKey>("/api-key/create", { name: "a" })).body;
    const before = await keys().findOne({ _id: new ObjectId(created.id) });
    const cases: [TestBrowser, Record<string, unknown>, number, unknown][] = [
      [new TestBrowser(t.auth), { keyId: created.id, userId: ada.userId, enabled: false }, 401, UNAUTHORIZED],
      [bob.browser, { keyId: created.id, enabled: false }, 404, NOT_FOUND],
      [bob.browser, { keyId: created.id, userId: ada.userId, enabled: false }, 403, NOT_AUTHORIZED],
      [ada.browser, { keyId: created.id, remaining: 1000 }, 403, NOT_AUTHORIZED],
      [ada.browser, { keyId: created.id, rateLimitEnabled: false }, 403, NOT_AUTHORIZED],
      [ada.browser, { keyId: created.id, permissions: { admin: ["*"] } }, 403, NOT_AUTHORIZED],
      [
        ada.browser,
        { keyId: created.id },
        400,
        { code: "NO_FIELDS_TO_UPDATE", message: "No fields to update" },
      ],
      [ada.browser, { keyId: "nope", name: "x" }, 404, NOT_FOUND],
      [ada.browser, { keyId: created.id, metadata: [1] }, 400, undefined],
    ];
    for (const [browser, body, status, expected] of cases) {
      const res = await browser.post("/api-key/update", body);
      expect(res.status).toBe(status);
      if (expected) expect(res.body).toEqual(expected);
    }
    expect(await keys().findOne({ _id: new ObjectId(created.id) })).toEqual(before);
  });

  it("server code may change limits: a new remaining starts a fresh budget", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, remaining: 1, rateLimitEnabled: false });
    expect((await t.auth.api.verifyApiKey({ body: { key: created.key } })).data).toMatchObject({
      valid: true,
    });
    const res = await t.auth.api.updateApiKey({ body: { keyId: created.id, userId, remaining: 3 } });
    expect(res.data).toMatchObject({ remaining: 3 });
    const got = await t.auth.api.updateApiKey({ body: { keyId: created.id, userId, rateLimitMax: 7 } });
    expect(got.data).toMatchObject({ remaining: 3, rateLimitMax: 7 });
  });
});

describe("POST /api-key/delete", () => {
  it("deletes the caller's key and its use claims; another user's key stays (404)", async () => {
    await openAuth();
    const ada = await signedIn(t);
    const bob = await signedIn(t, "bob@example.com");
    const created = await createKey(t, { userId: ada.userId, remaining: 5, rateLimitEnabled: false });
    await t.auth.api.verifyApiKey({ body: { key: created.key } });
    expect(await t.db.collection("apiKeyUses").countDocuments()).toBe(1);
    const foreign = await bob.browser.post("/api-key/delete", { keyId: created.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(NOT_FOUND);
    expect(await keys().countDocuments()).toBe(1);
    const res = await ada.browser.post("/api-key/delete", { keyId: created.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await keys().countDocuments()).toBe(0);
    expect(await t.db.collection("apiKeyUses").countDocuments()).toBe(0);
    expect((await ada.browser.post("/api-key/delete", { keyId: created.id })).status).toBe(404);
    const verified = await t.auth.api.verifyApiKey({ body: { key: created.key } });
    expect(verified.data).toMatchObject({
      valid: false,
      error: { code: "API_KEY_INVALID", message: "invalid" },
    });
  });
});

describe("while an admin impersonates the user", () => {
  it("create, update and delete answer 403; get and list still answer", async () => {
    await openAuth();
    const admin = await signedIn(t, "admin@example.com");
    const ada = await signedIn(t);
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(admin.userId) }, { $set: { role: "admin" } });
    const created = (await ada.browser.post<CreatedApiKey>("/api-key/create", { name: "ada" })).body;
    const impersonating = await admin.browser.post("/admin/impersonate-user", { userId: ada.userId });
    expect(impersonating.status).toBe(200);
    const refused = {
      code: "NOT_ALLOWED_WHILE_IMPERSONATING",
      message: "You cannot perform this action while impersonating a user",
    };
    const before = await keys().find({}).toArray();
    const calls: [string, Record<string, unknown>][] = [
      ["/api-key/create", { name: "backdoor" }],
      ["/api-key/update", { keyId: created.id, expiresIn: null }],
      ["/api-key/delete", { keyId: created.id }],
    ];
    for (const [path, body] of calls) {
      const res = await admin.browser.post(path, body);
      expect([path, res.status, res.body]).toEqual([path, 403, refused]);
    }
    expect(await keys().find({}).toArray()).toEqual(before);
    const list = await admin.browser.get<{ total: number }>("/api-key/list");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
  });
});

describe("exports for other areas", () => {
  it("deleteUserApiKeys removes a user's keys and use claims only (for delete-user / remove-user, D14)", async () => {
    await openAuth();
    const ada = await signedIn(t);
    const bob = await signedIn(t, "bob@example.com");
    const adaKey = await createKey(t, { userId: ada.userId, remaining: 3, rateLimitEnabled: false });
    await createKey(t, { userId: ada.userId });
    const bobKey = await createKey(t, { userId: bob.userId, remaining: 3, rateLimitEnabled: false });
    await t.auth.api.verifyApiKey({ body: { key: adaKey.key } });
    await t.auth.api.verifyApiKey({ body: { key: bobKey.key } });
    expect(await deleteUserApiKeys(t.auth.context.collections, new ObjectId(ada.userId))).toBe(2);
    expect((await keys().find({}).toArray()).map((doc) => doc._id.toHexString())).toEqual([bobKey.id]);
    const claims = await t.db.collection("apiKeyUses").find({}).toArray();
    expect(claims.map((doc) => doc.keyId.toHexString())).toEqual([bobKey.id]);
  });

  it("deleteExpiredKeyUses removes the claims of ended refill periods only (for auth.cleanup)", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const base = { userId, rateLimitEnabled: false };
    const refilled = await createKey(t, { ...base, remaining: 2, refillAmount: 2, refillInterval: 60_000 });
    const once = await createKey(t, { ...base, remaining: 2 });
    await t.auth.api.verifyApiKey({ body: { key: refilled.key } });
    await t.auth.api.verifyApiKey({ body: { key: once.key } });
    expect(await deleteExpiredKeyUses(t.auth.context.collections, t.now())).toBe(0);
    t.advance(61);
    expect(await deleteExpiredKeyUses(t.auth.context.collections, t.now())).toBe(1);
    const left = await t.db.collection("apiKeyUses").find({}).toArray();
    expect(left.map((doc) => doc.keyId.toHexString())).toEqual([once.id]);
    // The budget without refill is still spent: one use left, not two.
    expect((await t.auth.api.verifyApiKey({ body: { key: once.key } })).data).toMatchObject({
      key: { remaining: 0 },
    });
  });
});
