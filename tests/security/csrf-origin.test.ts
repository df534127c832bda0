import { type AuthError, isAuthError } from "@tessera/auth-core";
import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { TEST_ORIGIN, useTestAuthPerTest } from "#test/test-auth.ts";
import {
  expectCatalogueError,
  expectNoSessionIssued,
  PASSWORD,
  sendRaw,
  snapshotDatabase,
} from "./helpers.ts";

/**
 * Matrix F: a state-changing request that carries cookies must come from a trusted Origin (or
 * Referer) — docs/decisions/, docs/decisions/0010-origins-csrf-and-rate-limits.md "Origins, CSRF". The target is POST /sign-out, which deletes the
 * session: a forged one must leave it in place.
 */
const { t, openAuth } = useTestAuthPerTest();
let cookie: string;
beforeEach(async () => {
  await openAuth({ trustedOrigins: ["https://app.example.com"] });
  const browser = new TestBrowser(t.auth);
  await signUp(browser, { email: "ada@example.com", password: PASSWORD });
  cookie = browser.cookieHeader();
  expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
});

const signOut = (headers: Record<string, string>) =>
  sendRaw(t.auth, "POST", "/sign-out", { headers: { cookie, ...headers } });

async function expectForged(headers: Record<string, string>) {
  const before = await snapshotDatabase(t.db);
  const res = await signOut(headers);
  expectCatalogueError(res, 403, "INVALID_ORIGIN", "Invalid origin");
  expect(res.headers.getSetCookie()).toEqual([]);
  expect(await snapshotDatabase(t.db)).toBe(before);
  expect(await t.db.collection("sessions").countDocuments()).toBe(1);
}

describe("cookie-bearing POSTs over HTTP", () => {
  it("refuses a request with neither Origin nor Referer (F3)", async () => {
    await expectForged({});
    await expectForged({ "sec-fetch-site": "cross-site" });
  });

  it.each([
    "https://evil.com",
    "null",
    "http://localhost:3000.evil.com",
    "http://localhost:3001",
    "https://localhost:3000",
    "http://localhost",
    "https://app.example.com.evil.com",
    "https://evilapp.example.com",
    "http://app.example.com",
    "https://app.example.com:8443",
    "http://localhost:3000/",
    "HTTP://LOCALHOST:3000",
  ])("refuses Origin %s (F1, F2, F5)", async (origin) => {
    await expectForged({ origin });
  });

  it("refuses a foreign Origin even with a trusted Referer", async () => {
    await expectForged({ origin: "https://evil.com", referer: `${TEST_ORIGIN}/page` });
  });

  it.each(["https://evil.com/", "https://evil.com/?http://localhost:3000", "not a url"])(
    "refuses the Referer %s without Origin",
    async (referer) => {
      await expectForged({ referer });
    },
  );

  it("allows a trusted Origin and deletes the session", async () => {
    const res = await signOut({ origin: TEST_ORIGIN });
    expect(res.status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
  });

  it("allows a trusted Referer when the browser sent no Origin", async () => {
    const res = await signOut({ referer: "https://app.example.com/settings?tab=1" });
    expect(res.status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
  });

  it("does not check GET requests (no state change on GET, F8)", async () => {
    const res = await sendRaw(t.auth, "GET", "/get-session", {
      headers: { cookie, origin: "https://evil.com" },
    });
    expect(res.status).toBe(200);
    expect((res.json as { user: { email: string } }).user.email).toBe("ada@example.com");
  });

  it("sets no CORS header for a foreign Origin (F9)", async () => {
    const res = await sendRaw(t.auth, "OPTIONS", "/sign-out", { headers: { origin: "https://evil.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("cookie-less POSTs", () => {
  const signUpBody = JSON.stringify({ name: "Bob", email: "bob@example.com", password: PASSWORD });

  it("are allowed without Origin (server to server)", async () => {
    const res = await sendRaw(t.auth, "POST", "/sign-up/email", {
      headers: { "content-type": "application/json" },
      body: signUpBody,
    });
    expect(res.status).toBe(200);
    expect(await t.db.collection("users").countDocuments({ email: "bob@example.com" })).toBe(1);
  });

  it.each([
    ["no Origin", {}],
    ["a foreign Origin", { origin: "https://evil.com" }],
    ["a null Origin", { origin: "null" }],
  ])(
    "are refused when the browser declares them cross-site with %s (login CSRF, F7)",
    async (_n, headers) => {
      const before = await snapshotDatabase(t.db);
      const res = await sendRaw(t.auth, "POST", "/sign-in/email", {
        headers: { "content-type": "application/json", "sec-fetch-site": "cross-site", ...headers },
        body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
      });
      expectCatalogueError(res, 403, "INVALID_ORIGIN", "Invalid origin");
      expectNoSessionIssued(res.headers);
      expect(await snapshotDatabase(t.db)).toBe(before);
    },
  );

  it("are allowed cross-site from a trusted origin, and same-site without one", async () => {
    const crossTrusted = await sendRaw(t.auth, "POST", "/sign-in/email", {
      headers: {
        "content-type": "application/json",
        "sec-fetch-site": "cross-site",
        origin: "https://app.example.com",
      },
      body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
    });
    expect(crossTrusted.status).toBe(200);
    const sameOrigin = await sendRaw(t.auth, "POST", "/sign-in/email", {
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
    });
    expect(sameOrigin.status).toBe(200);
  });
});

describe("server API calls (auth.api)", () => {
  it("are trusted code: a cookie without Origin is allowed", async () => {
    const result = await t.auth.api.signOut({ headers: { cookie } });
    expect(result.status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
  });

  it("are refused when they forward a foreign browser Origin", async () => {
    let caught: unknown;
    try {
      await t.auth.api.signOut({ headers: { cookie, origin: "https://evil.com" } });
    } catch (error) {
      caught = error;
    }
    expect(isAuthError(caught)).toBe(true);
    expect((caught as AuthError).toJSON()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect((caught as AuthError).status).toBe(403);
    expect(await t.db.collection("sessions").countDocuments()).toBe(1);
  });

  it("are allowed when they forward a trusted browser Origin", async () => {
    const result = await t.auth.api.signOut({ headers: { cookie, origin: "https://app.example.com" } });
    expect(result.status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
  });
});
