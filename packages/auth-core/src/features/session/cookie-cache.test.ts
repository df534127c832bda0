import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import {
  flipChar,
  isClearing,
  maxAgeOf,
  setCookieLine,
  setCookieValue,
  tokenOf,
} from "#test/session-cookies.ts";
import { TEST_SECRET, useTestAuthPerTest } from "#test/test-auth.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { COOKIE_CACHE_MAX_LENGTH, decodeCookieCache, encodeCookieCache } from "./cookie-cache.ts";

interface SessionBody {
  session: { id: string; token: string };
  user: { id: string; email: string; image: string | null };
}

const { t } = useTestAuthPerTest({
  open: "each-test",
  overrides: { session: { cookieCache: { enabled: true } } },
});

/** Signs up and deletes the session row behind the browser's back: only the cache can answer. */
async function signUpThenDeleteRow(browser: TestBrowser, email = "ada@example.com"): Promise<string> {
  await signUp(browser, { email });
  const token = tokenOf(browser);
  await t.db.collection("sessions").deleteOne({ token });
  return token;
}

describe("cookie cache", () => {
  it("is set on sign-in, signed, for 60 seconds, and fits in 4093 characters", async () => {
    const browser = new TestBrowser(t.auth);
    const res = await signUp(browser);
    const line = setCookieLine(res.headers, CACHE_COOKIE);
    expect(line).toBeDefined();
    expect(maxAgeOf(line!)).toBe(60);
    expect(line).toContain("HttpOnly");
    expect(setCookieValue(line!).length).toBeLessThanOrEqual(COOKIE_CACHE_MAX_LENGTH);
  });

  it("answers get-session from the cache while it is valid, even after the row is gone", async () => {
    const browser = new TestBrowser(t.auth);
    const token = await signUpThenDeleteRow(browser);
    const res = await browser.get<SessionBody>("/get-session");
    expect(res.status).toBe(200);
    expect(res.body.session.token).toBe(token);
    expect(res.body.user.email).toBe("ada@example.com");
  });

  it("is bypassed with ?disableCookieCache=true (the deleted row answers null)", async () => {
    const browser = new TestBrowser(t.auth);
    await signUpThenDeleteRow(browser);
    const res = await browser.get("/get-session?disableCookieCache=true");
    expect(res.body).toBeNull();
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    expect(isClearing(setCookieLine(res.headers, CACHE_COOKIE))).toBe(true);
  });

  it("is used until 60 seconds and refused after (the browser still sends it)", async () => {
    const browser = new TestBrowser(t.auth);
    await signUpThenDeleteRow(browser);
    t.advance(59);
    expect((await browser.get("/get-session")).body).not.toBeNull();
    t.advance(2);
    const res = await browser.get("/get-session");
    expect(res.body).toBeNull();
    expect(isClearing(setCookieLine(res.headers, CACHE_COOKIE))).toBe(true);
  });

  it("is refused when one character of its body or signature is changed", async () => {
    for (const where of ["body", "signature"] as const) {
      const browser = new TestBrowser(t.auth);
      await signUpThenDeleteRow(browser, `${where}@example.com`);
      const cache = browser.cookies.get(CACHE_COOKIE)!;
      const index = where === "body" ? 10 : cache.lastIndexOf(".") + 5;
      browser.cookies.set(CACHE_COOKIE, flipChar(cache, index));
      const res = await browser.get("/get-session");
      expect(res.body).toBeNull();
      expect(isClearing(setCookieLine(res.headers, CACHE_COOKIE))).toBe(true);
    }
  });

  it("is refused without a signature", async () => {
    const browser = new TestBrowser(t.auth);
    await signUpThenDeleteRow(browser);
    const cache = browser.cookies.get(CACHE_COOKIE)!;
    browser.cookies.set(CACHE_COOKIE, cache.slice(0, cache.lastIndexOf(".")));
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("is refused for another session token: Bob's cache never answers for Ada's cookie", async () => {
    const ada = new TestBrowser(t.auth);
    const bob = new TestBrowser(t.auth);
    await signUp(ada);
    await signUp(bob, { email: "bob@example.com" });
    ada.cookies.set(CACHE_COOKIE, bob.cookies.get(CACHE_COOKIE)!);
    const res = await ada.get<SessionBody>("/get-session");
    expect(res.body.user.email).toBe("ada@example.com");
    expect(res.body.session.token).toBe(tokenOf(ada));
    // ...and Ada's cache is re-issued from the database.
    const reissued = setCookieLine(res.headers, CACHE_COOKIE);
    expect(setCookieValue(reissued!)).not.toBe(bob.cookies.get(CACHE_COOKIE));
  });

  it("does not stand in for the session cookie", async () => {
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    browser.cookies.delete(SESSION_COOKIE);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("is not set when the user data makes it exceed 4093 characters", async () => {
    const browser = new TestBrowser(t.auth);
    const signedUp = await signUp(browser);
    const image = `https://cdn.example.com/${"a".repeat(4000)}`;
    await t.db
      .collection("users")
      .updateOne({ _id: ObjectId.createFromHexString(signedUp.body.user.id) }, { $set: { image } });
    t.advance(61);
    const res = await browser.get<SessionBody>("/get-session");
    expect(res.body.user.image).toBe(image);
    // The old cache is deleted, no new one is written, and the session itself is unaffected.
    expect(isClearing(setCookieLine(res.headers, CACHE_COOKIE))).toBe(true);
    expect(browser.cookies.has(CACHE_COOKIE)).toBe(false);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
  });
});

describe("encodeCookieCache", () => {
  const now = new Date("2030-01-01T00:00:00Z");
  const name = "tessera.session_data";
  function docs(imageLength: number): { session: SessionDoc; user: UserDoc } {
    const userId = new ObjectId();
    return {
      session: {
        _id: new ObjectId(),
        userId,
        token: "a".repeat(32),
        expiresAt: new Date(now.getTime() + 3600_000),
        createdAt: now,
        updatedAt: now,
        ipAddress: "127.0.0.1",
        userAgent: "test",
        activeOrganizationId: null,
        dontRemember: false,
      },
      user: {
        _id: userId,
        email: "ada@example.com",
        emailVerified: true,
        name: "Ada",
        image: "x".repeat(imageLength),
        createdAt: now,
        updatedAt: now,
      },
    };
  }
  const encode = (imageLength: number) => {
    const { session, user } = docs(imageLength);
    return encodeCookieCache(session, user, new Date(now.getTime() + 60_000), TEST_SECRET, name);
  };

  it("keeps name=value within 4093 characters at the largest size that is still cached", () => {
    let largest = 0;
    for (let length = 2500; length < 3500; length++) if (encode(length) !== null) largest = length;
    expect(largest).toBeGreaterThan(2500);
    const value = encode(largest)!;
    expect(name.length + 1 + value.length).toBeLessThanOrEqual(COOKIE_CACHE_MAX_LENGTH);
    expect(name.length + 1 + value.length).toBeGreaterThan(COOKIE_CACHE_MAX_LENGTH - 4);
    expect(encode(largest + 3)).toBeNull();
  });

  it("round-trips, and is refused under another secret, after its expiry, or for another token", () => {
    const { session, user } = docs(10);
    const value = encodeCookieCache(session, user, new Date(now.getTime() + 60_000), TEST_SECRET, name)!;
    expect(decodeCookieCache(value, TEST_SECRET, session.token, now)?.user.email).toBe("ada@example.com");
    expect(decodeCookieCache(value, `${TEST_SECRET}x`, session.token, now)).toBeNull();
    expect(decodeCookieCache(value, TEST_SECRET, session.token, new Date(now.getTime() + 60_000))).toBeNull();
    expect(decodeCookieCache(value, TEST_SECRET, "b".repeat(32), now)).toBeNull();
  });

  it.each([
    ["an ordinary session", {}],
    ["an impersonation session with an active team", { impersonatedBy: new ObjectId(), activeTeamId: "t1" }],
    ["a session whose team was cleared (null)", { activeOrganizationId: "o1", activeTeamId: null }],
    ["a session with a field outside the model", { dontRemember: true, legacy: "kept" }],
  ])("rebuilds exactly the documents it was made from: %s", (_name, fields) => {
    const made = docs(10);
    const session = { ...made.session, ...fields } as SessionDoc;
    const value = encodeCookieCache(session, made.user, new Date(now.getTime() + 60_000), TEST_SECRET, name)!;
    const rebuilt = decodeCookieCache(value, TEST_SECRET, session.token, now)!;
    expect(rebuilt.session).toStrictEqual(session);
    expect(rebuilt.user).toStrictEqual(made.user);
  });
});
