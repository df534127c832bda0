import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "../support/browser.ts";
import { createTestAuth, type TestAuth } from "../support/test-auth.ts";
import { expectCatalogueError, expectNoSessionIssued, PASSWORD, snapshotDatabase } from "./helpers.ts";

/**
 * Matrix G: every callback-type field refuses anything that is neither a safe relative path nor a
 * URL on a trusted origin — 403 with the SPEC §8 message of that field, nothing written, no cookie.
 */
export const EVIL_CALLBACKS: readonly string[] = [
  // G1
  "https://evil.com",
  "http://evil.com",
  "HTTPS://EVIL.COM/x",
  // G2
  "//evil.com",
  "///evil.com",
  "////evil.com",
  // G3
  "/\\evil.com",
  "\\/evil.com",
  "/\\\\evil.com",
  "\\\\evil.com",
  "\\/\\/evil.com",
  // G4
  "/%2f%2fevil.com",
  "/%2F%2Fevil.com",
  "%2F%2Fevil.com",
  "/%5cevil.com",
  "/%5Cevil.com",
  "/%252F%252Fevil.com",
  // G5
  "http:evil.com",
  "https:evil.com",
  "http:/evil.com",
  "https:/\\evil.com",
  "https:\\\\evil.com",
  // G6
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "java%0ascript:alert(1)",
  " javascript:alert(1)",
  "\tjavascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  // G7
  "http://localhost:3000.evil.com",
  "http://localhost:3000@evil.com",
  "https://evil.com@localhost:3000",
  "http://evil.com@localhost:3000/",
  "https://evil.com#localhost:3000",
  "https://evil.com?localhost:3000",
  "http://localhost:3000%2F@evil.com",
  "http://localhost:3000%40evil.com",
  "http://localhost:80@evil.com",
  "https://localhost:3000",
  "http://localhost:3001",
  // G8
  "/\t/evil.com",
  "/%09/evil.com",
  "/ /evil.com",
  "/\n/evil.com",
  "/%0d%0a/evil.com",
  "/%00/evil.com",
  "http://local\thost:3000.evil.com",
  "http://localhost:3000\n.evil.com",
  // Trusted once a parser drops the control characters, but the raw value would reach a Location header.
  "http://local\nhost:3000/",
  "http://localhost:3000/\r\nSet-Cookie: x=1",
  "/dash\tboard",
  // G12, G13
  "https://evil.com／x",
  "http://localhost:3000。evil.com",
  "https://ｅｖｉｌ.com",
  "http://[::1",
  "%",
  "http://a b",
  "",
];

export const GOOD_CALLBACKS: readonly string[] = [
  "/",
  "/dashboard",
  "/dashboard?tab=1#x",
  "/a/b-c_d.e~f?x=1&y=%2F",
  "http://localhost:3000",
  "http://localhost:3000/cb?x=1",
  "https://app.example.com/cb",
];

let t: TestAuth;
beforeEach(async () => {
  t = await createTestAuth({ trustedOrigins: ["https://app.example.com"] });
  await signUp(new TestBrowser(t.auth), { email: "ada@example.com", password: PASSWORD });
});
afterEach(async () => {
  await t.close();
});

async function expectRefused(path: string, body: Record<string, unknown>) {
  const before = await snapshotDatabase(t.db);
  const res = await new TestBrowser(t.auth).post(path, body);
  expectCatalogueError(res, 403, "INVALID_CALLBACK_URL", "Invalid callbackURL");
  expectNoSessionIssued(res.headers);
  expect(res.headers.get("location")).toBeNull();
  expect(await snapshotDatabase(t.db)).toBe(before);
}

describe("callbackURL on sign-in and sign-up", () => {
  it.each(EVIL_CALLBACKS.map((url) => [url]))("refuses %j with 403 Invalid callbackURL", async (url) => {
    await expectRefused("/sign-in/email", { email: "ada@example.com", password: PASSWORD, callbackURL: url });
    await expectRefused("/sign-up/email", {
      name: "New",
      email: "new@example.com",
      password: PASSWORD,
      callbackURL: url,
    });
  });

  it.each(GOOD_CALLBACKS.map((url) => [url]))("accepts %j and echoes it unchanged", async (url) => {
    const res = await new TestBrowser(t.auth).post<{ url: string; redirect: boolean }>("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
      callbackURL: url,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url, redirect: true });
    const up = await new TestBrowser(t.auth).post("/sign-up/email", {
      name: "New",
      email: `new${GOOD_CALLBACKS.indexOf(url)}@example.com`,
      password: PASSWORD,
      callbackURL: url,
    });
    expect(up.status).toBe(200);
  });
});

describe("wildcard trusted origins (F6, G7)", () => {
  let w: TestAuth;
  beforeEach(async () => {
    w = await createTestAuth({ trustedOrigins: ["https://*.example.com", "*.example.org"] });
    await signUp(new TestBrowser(w.auth), { email: "ada@example.com", password: PASSWORD });
  });
  afterEach(async () => {
    await w.close();
  });

  const signInWith = (callbackURL: string) =>
    new TestBrowser(w.auth).post("/sign-in/email", { email: "ada@example.com", password: PASSWORD, callbackURL });

  it.each([
    "https://app.example.com/x",
    "https://a.b.example.com/",
    "https://APP.Example.com/x",
    "https://app.example.org/x",
  ])("trusts the subdomain URL %s", async (url) => {
    expect((await signInWith(url)).status).toBe(200);
  });

  it.each([
    "https://evil.com/?.example.com",
    "https://evil.com/.example.com",
    "https://evil.com#.example.com",
    "https://example.com.evil.com",
    "https://x.example.com.evil.io",
    "https://evilexample.com",
    "https://example.com",
    "http://app.example.com",
    "https://app.example.com:8443",
    "https://app.example.com@evil.com",
    "https://evil.com\\.example.com",
    "http://app.example.org/x",
  ])("does not trust %s", async (url) => {
    const before = await snapshotDatabase(w.db);
    const res = await signInWith(url);
    expectCatalogueError(res, 403, "INVALID_CALLBACK_URL", "Invalid callbackURL");
    expect(await snapshotDatabase(w.db)).toBe(before);
  });
});
