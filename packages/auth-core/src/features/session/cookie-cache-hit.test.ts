import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { isClearing, setCookieLine, tokenOf } from "#test/session-cookies.ts";
import { TEST_SECRET, useTestAuthPerTest } from "#test/test-auth.ts";
import { signValue } from "../../crypto/index.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { decodeCookieCache, encodeCookieCache, readCookieCache } from "./cookie-cache.ts";

/**
 * The cache hit's fast path (cookie-cache.ts): the signed get-session JSON is sent as it is, one HMAC
 * (bound to the exact signed session cookie) stands for both cookies, and the documents are rebuilt
 * only when read. Each test pins what must not change because of that.
 */
const { t } = useTestAuthPerTest({
  open: "each-test",
  overrides: { session: { cookieCache: { enabled: true } } },
});

async function signedUpWithoutRow(email = "ada@example.com"): Promise<TestBrowser> {
  const browser = new TestBrowser(t.auth);
  await signUp(browser, { email });
  await t.db.collection("sessions").deleteOne({ token: tokenOf(browser) });
  return browser;
}

describe("cookie cache hit", () => {
  it("answers byte for byte what the database answers for the same session", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const fromDatabase = await browser.get("/get-session?disableCookieCache=true");
    const fromCache = await browser.get("/get-session");
    expect(setCookieLine(fromCache.headers, CACHE_COOKIE)).toBeUndefined();
    expect(await fromCache.response.text()).toBe(await fromDatabase.response.text());
    expect(fromCache.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(fromCache.headers.get("cache-control")).toBe("no-store");
  });

  it("answers get-session's exact text, from the database and then from the cache alone", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const token = tokenOf(browser);
    const users = t.db.collection<UserDoc>("users");
    await users.updateOne(
      { email: "ada@example.com" },
      { $set: { language: "POL", twoFactorEnabled: true } },
    );
    // Without a cache cookie get-session reads the rows and issues a cache of what it answered.
    browser.cookies.delete(CACHE_COOKIE);
    const fromDatabase = await browser.get("/get-session");
    expect(setCookieLine(fromDatabase.headers, CACHE_COOKIE)).toBeDefined();
    const session = await t.db.collection<SessionDoc>("sessions").findOne({ token });
    const user = await users.findOne({ email: "ada@example.com" });
    if (!session || !user) throw new Error("signed up");
    const iso = (date: Date) => date.toISOString();
    const json =
      `{"session":{"id":"${session._id}","userId":"${user._id}","token":"${token}",` +
      `"expiresAt":"${iso(session.expiresAt)}","createdAt":"${iso(session.createdAt)}",` +
      `"updatedAt":"${iso(session.updatedAt)}","ipAddress":${JSON.stringify(session.ipAddress)},` +
      `"userAgent":${JSON.stringify(session.userAgent)},"activeOrganizationId":null},` +
      `"user":{"id":"${user._id}","email":"ada@example.com","emailVerified":${user.emailVerified},` +
      `"name":${JSON.stringify(user.name)},"image":null,"language":"POL","twoFactorEnabled":true,` +
      `"createdAt":"${iso(user.createdAt)}","updatedAt":"${iso(user.updatedAt)}"}}`;
    expect(await fromDatabase.response.text()).toBe(json);
    await t.db.collection("sessions").deleteOne({ token });
    expect(await (await browser.get("/get-session")).response.text()).toBe(json);
  });

  it("gives auth.api the session with Date and id values, as from the database", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    await t.db.collection("sessions").deleteOne({ token: tokenOf(browser) });
    const { data } = await t.auth.api.getSession({ headers: { cookie: browser.cookieHeader() } });
    const found = data as { session: { token: string; expiresAt: unknown }; user: { email: string } };
    expect(found.session.token).toBe(tokenOf(browser));
    expect(found.session.expiresAt).toBeInstanceOf(Date);
    expect(found.user.email).toBe("ada@example.com");
  });

  it("is refused next to a session cookie whose signature was changed (same token)", async () => {
    const browser = await signedUpWithoutRow();
    const token = tokenOf(browser);
    browser.cookies.set(SESSION_COOKIE, `${token}.${"A".repeat(43)}`);
    const res = await browser.get("/get-session");
    expect(res.body).toBeNull();
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    expect(isClearing(setCookieLine(res.headers, CACHE_COOKIE))).toBe(true);
  });

  it("is refused next to another genuine session cookie of the same user", async () => {
    const first = new TestBrowser(t.auth);
    await signUp(first);
    const second = new TestBrowser(t.auth);
    await second.post("/sign-in/email", { email: "ada@example.com", password: "correct horse battery" });
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    await t.db.collection("sessions").deleteOne({ token: tokenOf(first) });
    // First's cache (its row is gone) next to second's session cookie: answered from the database.
    second.cookies.set(CACHE_COOKIE, first.cookies.get(CACHE_COOKIE)!);
    const res = await second.get<{ session: { token: string } }>("/get-session");
    expect(res.body.session.token).toBe(tokenOf(second));
  });

  it("cannot stand in for the session cookie even though it carries the token", async () => {
    const browser = await signedUpWithoutRow();
    const token = tokenOf(browser);
    const cache = browser.cookies.get(CACHE_COOKIE)!;
    for (const forged of [token, `${token}.`, `${token}.x`]) {
      browser.cookies.set(SESSION_COOKIE, forged);
      browser.cookies.set(CACHE_COOKIE, cache);
      expect((await browser.get("/get-session")).body).toBeNull();
    }
  });
});

describe("cookie cache format", () => {
  const now = new Date("2030-01-01T00:00:00Z");
  const userId = new ObjectId();
  const session: SessionDoc = {
    _id: new ObjectId(),
    userId,
    token: "a".repeat(32),
    expiresAt: new Date(now.getTime() + 3600_000),
    createdAt: now,
    updatedAt: now,
    ipAddress: null,
    userAgent: "test",
    activeOrganizationId: null,
    dontRemember: true,
  };
  const user: UserDoc = {
    _id: userId,
    email: "ada@example.com",
    emailVerified: false,
    name: "Ada",
    image: null,
    language: "fr",
    createdAt: now,
    updatedAt: new Date(now.getTime() + 5),
  };
  const encode = (expiresAt = new Date(now.getTime() + 60_000)) =>
    encodeCookieCache(session, user, expiresAt, TEST_SECRET, "tessera.session_data")!;

  it("rebuilds the documents exactly, fields beyond the API shape included", () => {
    expect(decodeCookieCache(encode(), TEST_SECRET, session.token, now)).toEqual({ session, user });
  });

  it("expires with the session when the session ends before the cache", () => {
    const value = encode(new Date(now.getTime() + 7200_000));
    const signed = signValue(session.token, TEST_SECRET);
    expect(readCookieCache(value, TEST_SECRET, signed, new Date(now.getTime() + 3599_000))).not.toBeNull();
    expect(readCookieCache(value, TEST_SECRET, signed, new Date(now.getTime() + 3600_000))).toBeNull();
  });

  it("verifies only with the exact signed session cookie it was issued with", () => {
    const value = encode();
    const signed = signValue(session.token, TEST_SECRET);
    expect(readCookieCache(value, TEST_SECRET, signed, now)?.json).toContain('"token":"aaaa');
    expect(readCookieCache(value, TEST_SECRET, `${signed}x`, now)).toBeNull();
    expect(readCookieCache(value, TEST_SECRET, session.token, now)).toBeNull();
    expect(readCookieCache(value, `${TEST_SECRET}x`, signed, now)).toBeNull();
  });
});
