import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { createTestAuth, TEST_ORIGIN, type TestAuth } from "#test/test-auth.ts";
import { type EngineRequest, engineOf } from "./handler.ts";

/**
 * The standalone server calls the engine behind `auth.handler` directly (server/node-bridge.ts):
 * for the same request it must answer what the Fetch handler answers.
 */
let t: TestAuth;
let cookie: string;
beforeAll(async () => {
  // A fixed clock: the database read re-issues the cache cookie, whose value carries its expiry.
  const now = new Date("2030-01-01T00:00:00Z");
  t = await createTestAuth({ session: { cookieCache: { enabled: true } }, clock: () => new Date(now) });
  const browser = new TestBrowser(t.auth);
  await signUp(browser);
  cookie = browser.cookieHeader();
});
afterAll(async () => {
  await t.close();
});

function engineRequest(method: string, path: string, headers: Record<string, string>): EngineRequest {
  const url = new URL(`${TEST_ORIGIN}/api/auth${path}`);
  return {
    method,
    pathname: url.pathname,
    query: url.search.slice(1),
    headers: new Headers(headers),
    remoteAddress: "127.0.0.1",
    readBody: async () => ({}),
  };
}

describe("engineOf(auth.handler)", () => {
  it("is the engine only for handlers createHandler made", () => {
    expect(engineOf(t.auth.handler)).toBeTypeOf("function");
    expect(engineOf(async () => new Response(null))).toBeUndefined();
  });

  it.each([
    ["GET", "/get-session", true],
    ["GET", "/get-session?disableCookieCache=true", true],
    ["GET", "/ok", false],
    ["HEAD", "/ok", false],
    ["GET", "/nope", false],
    ["DELETE", "/ok", false],
  ])("answers %s %s like the Fetch handler", async (method, path, withCookie) => {
    const headers: Record<string, string> = withCookie ? { cookie } : {};
    const engine = engineOf(t.auth.handler)!;
    const reply = await engine(engineRequest(method, path, headers));
    const response = await t.auth.handler(
      new Request(`${TEST_ORIGIN}/api/auth${path}`, { method, headers }),
      { remoteAddress: "127.0.0.1" },
    );
    expect(reply.status).toBe(response.status);
    expect(reply.setCookies).toEqual(response.headers.getSetCookie());
    const fetchHeaders = Object.fromEntries([...response.headers].filter(([name]) => name !== "set-cookie"));
    expect(reply.headers).toEqual(fetchHeaders);
    expect(reply.body ?? "").toBe(await response.text());
  });
});
