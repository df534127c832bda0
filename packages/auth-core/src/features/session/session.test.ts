import { createAuth } from "@tessera/auth-core";
import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import {
  DAY,
  DONT_REMEMBER_COOKIE,
  findSessionRow,
  flipChar,
  isClearing,
  maxAgeOf,
  setCookieLine,
  tokenOf,
} from "#test/session-cookies.ts";
import { TEST_ORIGIN, TEST_SECRET, useTestAuthPerTest } from "#test/test-auth.ts";

interface SessionBody {
  session: { id: string; userId: string; token: string; expiresAt: string };
  user: { id: string; email: string };
}

const { t, openAuth } = useTestAuthPerTest();

interface Operation {
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
}

/** get-session as the instance's API document (GET /openapi.json) describes it. */
async function getSessionOperation(): Promise<Operation> {
  const res = await new TestBrowser(t.auth).get<{ paths: Record<string, { get: Operation }> }>(
    `${TEST_ORIGIN}/api/auth/openapi.json`,
  );
  expect(res.status).toBe(200);
  return res.body.paths["/api/auth/get-session"]!.get;
}

describe("get-session", () => {
  beforeEach(async () => {
    await openAuth();
  });

  it("answers null without a session cookie and sets no cookie", async () => {
    const res = await new TestBrowser(t.auth).get("/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("is open to anyone, as its contract and the API document say: anonymous, or the session cookie sent", async () => {
    const operation = await getSessionOperation();
    expect(operation.security).toContainEqual({});
    expect(operation.security).toContainEqual({ sessionCookie: [] });
    // An API key's refusals exist only where keys stand for sessions.
    expect(JSON.stringify(operation.responses)).not.toContain("API_KEY_INVALID");
  });

  it("reads an API key where keys stand for sessions, and the API document lists the key's refusals", async () => {
    await openAuth({ apiKey: { enableSessionForAPIKeys: true } });
    const operation = await getSessionOperation();
    expect(operation.security).toContainEqual({});
    expect(operation.security).toContainEqual({ apiKey: [] });
    expect(JSON.stringify(operation.responses)).toContain("API_KEY_INVALID");
    const res = await new TestBrowser(t.auth).get("/get-session", { headers: { "x-api-key": "not-a-key" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "API_KEY_INVALID", message: "invalid" });
  });

  it("returns the session and user of a signed-in browser", async () => {
    const browser = new TestBrowser(t.auth);
    const signedUp = await signUp(browser);
    const res = await browser.get<SessionBody>("/get-session");
    expect(res.status).toBe(200);
    const row = await findSessionRow(t.db, tokenOf(browser));
    expect(res.body.session.id).toBe(row?._id.toHexString());
    expect(res.body.session.token).toBe(signedUp.body.token);
    expect(res.body.user).toMatchObject({ id: signedUp.body.user.id, email: "ada@example.com" });
  });

  it("answers null and clears the cookie when the cookie's signature was changed", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const token = tokenOf(browser);
    const signed = decodeURIComponent(browser.cookies.get(SESSION_COOKIE)!);
    browser.cookies.set(SESSION_COOKIE, encodeURIComponent(flipChar(signed, signed.lastIndexOf(".") + 5)));
    const res = await browser.get("/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    // A forged cookie deletes nothing: the real session is untouched.
    expect(await findSessionRow(t.db, token)).not.toBeNull();
  });

  it("answers null for a raw token without signature (the token alone is no credential)", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    browser.cookies.set(SESSION_COOKIE, tokenOf(browser));
    const res = await browser.get("/get-session");
    expect(res.body).toBeNull();
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
  });

  it("deletes an expired session, answers null and clears the cookies", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const token = tokenOf(browser);
    t.advance(7 * DAY + 1);
    const res = await browser.get("/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    expect(await findSessionRow(t.db, token)).toBeNull();
  });
});

describe("sliding refresh", () => {
  beforeEach(async () => {
    await openAuth();
  });

  it("is not refreshed before the update age (1 day)", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const before = await findSessionRow(t.db, tokenOf(browser));
    t.advance(DAY - 60);
    const res = await browser.get<SessionBody>("/get-session");
    expect(res.body.session.token).toBe(tokenOf(browser));
    expect(setCookieLine(res.headers, SESSION_COOKIE)).toBeUndefined();
    const after = await findSessionRow(t.db, tokenOf(browser));
    expect(after?.expiresAt).toEqual(before?.expiresAt);
    expect(after?.updatedAt).toEqual(before?.updatedAt);
  });

  it("moves expiresAt forward and re-sets the cookie when read after the update age", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const before = await findSessionRow(t.db, tokenOf(browser));
    t.advance(DAY + 60);
    const readAt = t.now().getTime();
    const res = await browser.get<SessionBody>("/get-session");
    const after = await findSessionRow(t.db, tokenOf(browser));
    expect(after!.expiresAt.getTime()).toBeGreaterThan(before!.expiresAt.getTime());
    expect(Math.abs(after!.expiresAt.getTime() - (readAt + 7 * DAY * 1000))).toBeLessThan(2000);
    expect(new Date(res.body.session.expiresAt)).toEqual(after!.expiresAt);
    const line = setCookieLine(res.headers, SESSION_COOKIE);
    expect(maxAgeOf(line!)).toBeGreaterThanOrEqual(7 * DAY - 2);
    expect(maxAgeOf(line!)).toBeLessThanOrEqual(7 * DAY);
  });

  it("keeps the session alive past its first expiry when used every few days", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    for (let i = 0; i < 4; i++) {
      t.advance(3 * DAY);
      expect((await browser.get<SessionBody>("/get-session")).body).not.toBeNull();
    }
  });

  it("is not refreshed with ?disableRefresh=true, and is without it", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const before = await findSessionRow(t.db, tokenOf(browser));
    t.advance(DAY + 60);
    const skipped = await browser.get<SessionBody>("/get-session?disableRefresh=true");
    expect(skipped.body.session.token).toBe(tokenOf(browser));
    expect(setCookieLine(skipped.headers, SESSION_COOKIE)).toBeUndefined();
    expect((await findSessionRow(t.db, tokenOf(browser)))?.expiresAt).toEqual(before?.expiresAt);
    await browser.get("/get-session");
    const refreshed = await findSessionRow(t.db, tokenOf(browser));
    expect(refreshed!.expiresAt.getTime()).toBeGreaterThan(before!.expiresAt.getTime());
  });

  it("refuses a query value that is not a boolean", async () => {
    const res = await new TestBrowser(t.auth).get("/get-session?disableRefresh=yes");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
  });
});

describe("rememberMe false", () => {
  beforeEach(async () => {
    // A short update age, so that a remembered session would be refreshed within the test.
    await openAuth({ session: { updateAge: 3600 } });
  });

  async function signIn(browser: TestBrowser, rememberMe: boolean) {
    return browser.post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
      rememberMe,
    });
  }

  it("sets a browser-session cookie, a dont_remember cookie, and a 1-day session", async () => {
    await signUp(new TestBrowser(t.auth));
    const browser = new TestBrowser(t.auth);
    const res = await signIn(browser, false);
    expect(res.status).toBe(200);
    const line = setCookieLine(res.headers, SESSION_COOKIE);
    expect(line).toBeDefined();
    expect(maxAgeOf(line!)).toBeUndefined();
    const dontRemember = setCookieLine(res.headers, DONT_REMEMBER_COOKIE);
    expect(dontRemember).toBeDefined();
    expect(maxAgeOf(dontRemember!)).toBeUndefined();
    const row = await findSessionRow(t.db, tokenOf(browser));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(DAY * 1000);
    expect(row!.dontRemember).toBe(true);
  });

  it("is never refreshed, while a remembered session is, and ends after 1 day", async () => {
    await signUp(new TestBrowser(t.auth));
    const shortLived = new TestBrowser(t.auth);
    const remembered = new TestBrowser(t.auth);
    await signIn(shortLived, false);
    await signIn(remembered, true);
    const shortBefore = await findSessionRow(t.db, tokenOf(shortLived));
    const rememberedBefore = await findSessionRow(t.db, tokenOf(remembered));
    t.advance(7200);
    const res = await shortLived.get<SessionBody>("/get-session");
    expect(res.body.session.token).toBe(tokenOf(shortLived));
    expect(setCookieLine(res.headers, SESSION_COOKIE)).toBeUndefined();
    expect((await findSessionRow(t.db, tokenOf(shortLived)))?.expiresAt).toEqual(shortBefore?.expiresAt);
    await remembered.get("/get-session");
    const rememberedAfter = await findSessionRow(t.db, tokenOf(remembered));
    expect(rememberedAfter!.expiresAt.getTime()).toBeGreaterThan(rememberedBefore!.expiresAt.getTime());
    t.advance(DAY - 7200);
    expect((await shortLived.get("/get-session")).body).toBeNull();
    expect(await findSessionRow(t.db, shortBefore!.token)).toBeNull();
  });

  it("a later remembered sign-in in the same browser drops the dont_remember cookie", async () => {
    await signUp(new TestBrowser(t.auth));
    const browser = new TestBrowser(t.auth);
    await signIn(browser, false);
    const res = await signIn(browser, true);
    expect(isClearing(setCookieLine(res.headers, DONT_REMEMBER_COOKIE))).toBe(true);
    expect(maxAgeOf(setCookieLine(res.headers, SESSION_COOKIE)!)).toBeGreaterThan(7 * DAY - 3);
  });
});

describe("cookie lifetime", () => {
  it("never sends a Max-Age above 400 days", async () => {
    await openAuth({ session: { expiresIn: 400 * DAY } });
    const res = await signUp(new TestBrowser(t.auth));
    const maxAge = maxAgeOf(setCookieLine(res.headers, SESSION_COOKIE)!);
    expect(maxAge).toBeLessThanOrEqual(400 * DAY);
    expect(maxAge).toBeGreaterThan(400 * DAY - 3);
  });

  it("refuses a session lifetime above 400 days when the auth is created", async () => {
    await openAuth();
    expect(() =>
      createAuth({ database: t.db, secret: TEST_SECRET, session: { expiresIn: 400 * DAY + 1 } }),
    ).toThrow(/session\.expiresIn/);
  });
});

describe("sign-out", () => {
  beforeEach(async () => {
    await openAuth();
  });

  it("deletes the session row and clears the cookies; the old cookie no longer works", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const other = new TestBrowser(t.auth);
    await signUp(other, { email: "bob@example.com" });
    const token = tokenOf(browser);
    const cookie = browser.cookieHeader();
    const res = await browser.post("/sign-out");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    expect(await findSessionRow(t.db, token)).toBeNull();
    expect(await findSessionRow(t.db, tokenOf(other))).not.toBeNull();
    const replay = await new TestBrowser(t.auth).get("/get-session", { headers: { cookie } });
    expect(replay.body).toBeNull();
  });

  it("succeeds without a session and deletes nothing", async () => {
    await signUp(new TestBrowser(t.auth));
    const res = await new TestBrowser(t.auth).post("/sign-out");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await t.db.collection("sessions").countDocuments()).toBe(1);
  });

  it("refuses a cookie-bearing sign-out from an untrusted origin and keeps the session", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const res = await browser.post("/sign-out", {}, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect(await findSessionRow(t.db, tokenOf(browser))).not.toBeNull();
  });
});
