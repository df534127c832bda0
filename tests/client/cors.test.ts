import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveServer, startLiveServer } from "./live-server.ts";

/**
 * CORS on the standalone server and, behind `{ cors: true }`, on auth.handler: trusted origins get
 * their own origin back with credentials; untrusted ones get no CORS header at all.
 */
const APP = "http://127.0.0.1:5999";
const EVIL = "http://127.0.0.1:6666";
let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({}, { TESSERA_TRUSTED_ORIGINS: APP });
});
afterAll(async () => {
  await live?.close();
});

function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-")));
}

function preflight(origin: string, url = `${live.origin}/api/auth/sign-in/email`) {
  return fetch(url, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
}

describe("the standalone server", () => {
  it("answers a trusted origin's preflight with its own origin, credentials, methods, headers and a bounded Max-Age", async () => {
    const response = await preflight(APP);
    expect(response.status).toBe(204);
    expect(corsHeaders(response)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": "GET, POST",
      "access-control-allow-headers": "content-type, x-api-key, x-tessera-organization",
      "access-control-max-age": "600",
    });
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("adds the CORS headers to a trusted origin's requests, errors included", async () => {
    const session = await fetch(`${live.origin}/api/auth/get-session`, { headers: { origin: APP } });
    expect(corsHeaders(session)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "Retry-After, X-Retry-After",
    });
    expect(session.headers.get("vary")).toBe("Origin");
    const failed = await fetch(`${live.origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: APP, "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "wrong password" }),
    });
    expect(failed.status).toBe(401);
    expect(failed.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("gives an untrusted origin no CORS header at all, preflight or request", async () => {
    const response = await preflight(EVIL);
    expect(corsHeaders(response)).toEqual({});
    expect(response.status).toBe(405);
    const session = await fetch(`${live.origin}/api/auth/get-session`, { headers: { origin: EVIL } });
    expect(session.status).toBe(200);
    expect(corsHeaders(session)).toEqual({});
    expect(session.headers.get("vary")).toBe("Origin");
  });
});

describe("auth.handler", () => {
  it("adds CORS only when asked with { cors: true }", async () => {
    const { auth } = live.server;
    const request = () =>
      new Request(`${live.origin}/api/auth/sign-in/email`, {
        method: "OPTIONS",
        headers: { origin: APP, "access-control-request-method": "POST" },
      });
    const without = await auth.handler(request());
    expect(corsHeaders(without)).toEqual({});
    const withCors = await auth.handler(request(), { cors: true });
    expect(withCors.status).toBe(204);
    expect(corsHeaders(withCors)["access-control-allow-origin"]).toBe(APP);
    const untrusted = await auth.handler(
      new Request(`${live.origin}/api/auth/get-session`, { headers: { origin: EVIL } }),
      { cors: true },
    );
    expect(corsHeaders(untrusted)).toEqual({});
  });
});
