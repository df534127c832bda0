import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createKey, type Overrides, signedIn } from "#test/api-key.ts";
import { TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

const ENABLED: Overrides = { apiKey: { enableSessionForAPIKeys: true } };
const NO_RATE_LIMIT = { rateLimitEnabled: false };

/** A server-to-server client: no cookies, no Origin. */
function keyClient(): TestBrowser {
  return new TestBrowser(t.auth, null);
}

async function userName(userId: string): Promise<string | undefined> {
  return (await t.db.collection("users").findOne({ _id: new ObjectId(userId) }))?.name;
}

describe("x-api-key as the caller (apiKey.enableSessionForAPIKeys)", () => {
  it("is off by default: the header is ignored and no use is counted", async () => {
    await openAuth();
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, remaining: 5, ...NO_RATE_LIMIT });
    const res = await keyClient().post(
      "/update-user",
      { name: "Key" },
      { headers: { "x-api-key": created.key } },
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    expect(await userName(userId)).toBe("Ada Lovelace");
    expect(await t.db.collection("apiKeyUses").countDocuments()).toBe(0);
  });

  it("authenticates as the key's user without a cookie or a session row, counting one use", async () => {
    await openAuth(ENABLED);
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, remaining: 5, ...NO_RATE_LIMIT });
    const res = await keyClient().post(
      "/update-user",
      { name: "Via Key" },
      { headers: { "x-api-key": created.key } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await userName(userId)).toBe("Via Key");
    expect(await t.db.collection("sessions").countDocuments()).toBe(1); // sign-up's only
    expect(await t.db.collection("apiKeyUses").countDocuments()).toBe(1);
  });

  it("sets no cookie even with the cookie cache on", async () => {
    await openAuth({ ...ENABLED, session: { cookieCache: { enabled: true } } });
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, ...NO_RATE_LIMIT });
    const res = await keyClient().post(
      "/update-user",
      { name: "Cached" },
      { headers: { "x-api-key": created.key } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await userName(userId)).toBe("Cached");
  });

  it("never takes the key from the query string", async () => {
    await openAuth(ENABLED);
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, ...NO_RATE_LIMIT });
    for (const name of ["x-api-key", "apiKey", "api_key"]) {
      const res = await keyClient().post(`/update-user?${name}=${created.key}`, { name: "Query" });
      expect(res.status).toBe(401);
    }
    expect(await userName(userId)).toBe("Ada Lovelace");
  });

  it("a refused key is not silently replaced by the cookie session", async () => {
    await openAuth(ENABLED);
    const { browser, userId } = await signedIn(t);
    const res = await browser.post("/update-user", { name: "X" }, { headers: { "x-api-key": "not-a-key" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "API_KEY_INVALID", message: "invalid" });
    expect(await userName(userId)).toBe("Ada Lovelace");
  });

  it("answers every refusal with its the error catalogue message and status (K4)", async () => {
    await openAuth(ENABLED);
    const { browser, userId } = await signedIn(t);
    const disabled = await createKey(t, { userId, ...NO_RATE_LIMIT });
    await browser.post("/api-key/update", { keyId: disabled.id, enabled: false });
    const expiring = await createKey(t, { userId, expiresIn: 86400, ...NO_RATE_LIMIT });
    const deleted = await createKey(t, { userId, ...NO_RATE_LIMIT });
    await browser.post("/api-key/delete", { keyId: deleted.id });
    const once = await createKey(t, { userId, remaining: 1, ...NO_RATE_LIMIT });
    const throttled = await createKey(t, { userId, rateLimitMax: 1, rateLimitTimeWindow: 60_000 });
    const call = (key: string) =>
      keyClient().post("/update-user", { name: "N" }, { headers: { "x-api-key": key } });
    expect((await call(once.key)).status).toBe(200);
    expect((await call(throttled.key)).status).toBe(200);
    t.advance(86400);
    const expectations: [string, number, string, string][] = [
      [disabled.key, 401, "API_KEY_DISABLED", "disabled"],
      [expiring.key, 401, "API_KEY_EXPIRED", "expired"],
      [deleted.key, 401, "API_KEY_INVALID", "invalid"],
      [once.key, 429, "API_KEY_USAGE_EXCEEDED", "usage limit reached"],
    ];
    for (const [key, status, code, message] of expectations) {
      const res = await call(key);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ code, message });
    }
    await call(throttled.key); // a new window after the day: admitted
    const limited = await call(throttled.key);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "API_KEY_RATE_LIMITED", message: "rate limit exceeded" });
    expect(await userName(userId)).toBe("N");
  });

  it("is never fresh: fresh-session endpoints answer 403 Session is not fresh", async () => {
    await openAuth(ENABLED);
    const { userId } = await signedIn(t);
    const created = await createKey(t, { userId, ...NO_RATE_LIMIT });
    const res = await keyClient().get("/list-sessions", { headers: { "x-api-key": created.key } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
  });

  it("is refused by sensitive endpoints with 403 Not authorized (K7), changing nothing", async () => {
    await openAuth({ ...ENABLED, user: { deleteUser: { enabled: true } } });
    const ada = await signedIn(t);
    const bob = await signedIn(t, "bob@example.com");
    await t.db.collection("users").updateOne({ _id: new ObjectId(ada.userId) }, { $set: { role: "admin" } });
    const created = await createKey(t, { userId: ada.userId, ...NO_RATE_LIMIT });
    const calls: [string, Record<string, unknown>][] = [
      [
        "/change-password",
        { currentPassword: "correct horse battery", newPassword: "another horse battery" },
      ],
      ["/delete-user", { password: "correct horse battery" }],
      ["/revoke-sessions", {}],
      ["/api-key/create", { name: "minted by a key" }],
      ["/api-key/delete", { keyId: created.id }],
      ["/admin/set-role", { userId: bob.userId, role: "admin" }],
      ["/admin/impersonate-user", { userId: bob.userId }],
    ];
    const before = {
      users: await t.db.collection("users").find({}).toArray(),
      accounts: await t.db.collection("accounts").find({}).toArray(),
      sessions: await t.db.collection("sessions").countDocuments(),
      keys: await t.db.collection("apiKeys").countDocuments(),
    };
    for (const [path, body] of calls) {
      const res = await keyClient().post(path, body, { headers: { "x-api-key": created.key } });
      // delete-user reads its caller itself, from the cookie only (auth "none"): a key is no caller there.
      const expected =
        path === "/delete-user"
          ? [path, 401, { code: "UNAUTHORIZED", message: "unauthorized" }]
          : [path, 403, { code: "NOT_AUTHORIZED", message: "Not authorized" }];
      expect([path, res.status, res.body]).toEqual(expected);
    }
    expect(await t.db.collection("users").find({}).toArray()).toEqual(before.users);
    expect(await t.db.collection("accounts").find({}).toArray()).toEqual(before.accounts);
    expect(await t.db.collection("sessions").countDocuments()).toBe(before.sessions);
    expect(await t.db.collection("apiKeys").countDocuments()).toBe(before.keys);
    // The same admin with her cookie session may: the refusal is the key's.
    const withCookie = await ada.browser.post("/admin/set-role", { userId: bob.userId, role: "admin" });
    expect(withCookie.status).toBe(200);
  });
});
