import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { TEST_ORIGIN, useFreshTestAuth } from "#test/test-auth.ts";
import { type EngineRequest, engineOf } from "./handler.ts";

/**
 * The engine's one synchronous branch (run-endpoint.ts answerFromCookieCache): a get-session the
 * signed cookie cache answers. It must be as fast as it is (no promise: the standalone server writes
 * it in the tick the request arrived) and never skip what the rest of the engine does for it.
 */
const freshTestAuth = useFreshTestAuth();
const CACHED = { session: { cookieCache: { enabled: true } } } as const;

function engineRequest(path: string, headers: Headers): EngineRequest {
  const url = new URL(`${TEST_ORIGIN}/api/auth${path}`);
  return {
    method: "GET",
    pathname: url.pathname,
    query: url.search.slice(1),
    headers,
    remoteAddress: "127.0.0.1",
    readBody: async () => ({}),
  };
}

describe("the cookie-cache branch of the engine", () => {
  it("answers a cookie-cached get-session at once, and one read from the database later", async () => {
    const t = await freshTestAuth(CACHED);
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const engine = engineOf(t.auth.handler)!;
    const headers = new Headers({ cookie: browser.cookieHeader() });
    const cached = engine(engineRequest("/get-session", headers));
    expect(cached).not.toBeInstanceOf(Promise);
    expect(JSON.parse((cached as { body: string }).body).user.email).toBe("ada@example.com");
    const fromDatabase = engine(engineRequest("/get-session?disableCookieCache=true", headers));
    expect(fromDatabase).toBeInstanceOf(Promise);
    expect(JSON.parse((await fromDatabase).body as string).user.email).toBe("ada@example.com");
  });

  it("still counts a cookie-cached get-session against its rate limit: the third in the window is 429", async () => {
    const t = await freshTestAuth({
      ...CACHED,
      rateLimit: { enabled: true, customRules: { "/get-session": { window: 60, max: 2 } } },
    });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    expect(browser.cookies.has(CACHE_COOKIE)).toBe(true);
    expect((await browser.get("/get-session")).status).toBe(200);
    expect((await browser.get("/get-session")).status).toBe(200);
    const limited = await browser.get("/get-session");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: "Too many requests. Please try again later.",
    });
  });

  it("leaves a request that sends an API key to the key: a refused key is refused, not answered from the cache", async () => {
    const t = await freshTestAuth({ ...CACHED, apiKey: { enableSessionForAPIKeys: true } });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    expect(browser.cookies.has(CACHE_COOKIE)).toBe(true);
    const res = await browser.get("/get-session", { headers: { "x-api-key": "not-a-key" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "API_KEY_INVALID", message: "invalid" });
  });

  it("answers input the endpoint refuses with its 400, as without a cache", async () => {
    const t = await freshTestAuth(CACHED);
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const res = await browser.get("/get-session?disableCookieCache=maybe");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
  });
});
