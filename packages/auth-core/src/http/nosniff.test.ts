import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { TEST_ORIGIN, useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * docs/security.md "Response headers": every answer of the core's handler says
 * `X-Content-Type-Options: nosniff`, so no browser reads a JSON error that echoes input, or a
 * redirect's body, as HTML or script.
 */
const { t, openAuth } = useTestAuthPerTest();

const expectNoSniff = (headers: Headers, what: string) =>
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");

describe("X-Content-Type-Options: nosniff on every answer", () => {
  it("every registered endpoint, signed in, whatever it answers", async () => {
    await openAuth();
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    for (const endpoint of t.auth.endpoints) {
      const methods = typeof endpoint.method === "string" ? [endpoint.method] : endpoint.method;
      const path = endpoint.path.replace(/:(\w+)/g, "x");
      for (const method of methods) {
        const res = await browser.request(method, path, method === "GET" ? {} : { body: {} });
        expectNoSniff(res.headers, `${method} ${path} (${res.status})`);
      }
    }
  });

  it("a success, a validation error, a redirect, 404, 405, the API document and its page", async () => {
    await openAuth();
    const browser = new TestBrowser(t.auth);
    const signedUp = await signUp(browser);
    expect(signedUp.status).toBe(200);
    expectNoSniff(signedUp.headers, "sign-up");
    const invalid = await browser.post("/sign-in/email", { email: "not an address", password: "x" });
    expect(invalid.status).toBe(400);
    expectNoSniff(invalid.headers, "400");
    const redirect = await browser.get("/verify-email?token=nonsense&callbackURL=/welcome");
    expect(redirect.status).toBe(302);
    expectNoSniff(redirect.headers, "302");
    const missing = await browser.get(`${TEST_ORIGIN}/api/auth/no-such-endpoint`);
    expect(missing.status).toBe(404);
    expectNoSniff(missing.headers, "404");
    const wrongMethod = await browser.request("DELETE", "/sign-in/email");
    expect(wrongMethod.status).toBe(405);
    expectNoSniff(wrongMethod.headers, "405");
    for (const path of ["/openapi.json", "/reference"]) {
      const res = await browser.get(path);
      expect(res.status).toBe(200);
      expectNoSniff(res.headers, path);
    }
  });

  it("a rate-limited answer, a CORS preflight and auth.api's answers", async () => {
    await openAuth({ rateLimit: { enabled: true, window: 60, max: 1 } });
    const browser = new TestBrowser(t.auth);
    await browser.get("/ok");
    const limited = await browser.get("/ok");
    expect(limited.status).toBe(429);
    expectNoSniff(limited.headers, "429");
    const preflight = await t.auth.handler(
      new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
        method: "OPTIONS",
        headers: { origin: TEST_ORIGIN, "access-control-request-method": "POST" },
      }),
      { cors: true, remoteAddress: "127.0.0.2" },
    );
    expect(preflight.status).toBe(204);
    expectNoSniff(preflight.headers, "preflight");
    const viaApi = await t.auth.api.ok({});
    expectNoSniff(viaApi.headers, "auth.api");
  });
});
