import { beforeAll, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuth } from "#test/test-auth.ts";
import { expectCatalogueError, expectNoSessionIssued, PASSWORD, snapshotDatabase } from "./helpers.ts";
import { EVIL_CALLBACKS, GOOD_CALLBACKS } from "./redirect-payloads.ts";

/**
 * Matrix G: every callback-type field refuses anything that is neither a safe relative path nor a
 * URL on a trusted origin — 403 with the message of that field, nothing written, no cookie.
 * One instance per describe: a refusal writes nothing (each test checks), and what an accepted
 * callback writes (a session, a user of its own address) changes no other test's answer.
 */
const t = useTestAuth({ trustedOrigins: ["https://app.example.com"] });
beforeAll(async () => {
  await signUp(new TestBrowser(t.auth), { email: "ada@example.com", password: PASSWORD });
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
  const w = useTestAuth({ trustedOrigins: ["https://*.example.com", "*.example.org"] });
  beforeAll(async () => {
    await signUp(new TestBrowser(w.auth), { email: "ada@example.com", password: PASSWORD });
  });

  const signInWith = (callbackURL: string) =>
    new TestBrowser(w.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
      callbackURL,
    });

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
