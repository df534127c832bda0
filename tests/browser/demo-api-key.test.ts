/**
 * An API key made in the demo signs its requests in (apiKey.enableSessionForAPIKeys in
 * app/auth.server.ts); before, the demo accepted the key nowhere. The built app, over HTTP.
 */
import { describe, expect, it } from "vitest";
import { DEMO, useTestApp } from "./app-harness.ts";

const app = useTestApp();

async function call(path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${app.url}/api/auth${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      origin: app.url,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json(), cookie: response.headers.getSetCookie() };
}

describe("an API key made in the demo", () => {
  it("signs a request in as its user with the x-api-key header, and a wrong key is refused", async () => {
    const signIn = await call("/sign-in/email", { body: { email: DEMO.grace, password: DEMO.password } });
    expect(signIn.status).toBe(200);
    const cookie = signIn.cookie.map((line) => line.split(";")[0]).join("; ");
    const created = await call("/api-key/create", { body: { name: "script" }, headers: { cookie } });
    expect(created.status).toBe(200);
    const key = (created.body as { key: string }).key;

    const withKey = await call("/get-session", { headers: { "x-api-key": key } });
    expect(withKey.status).toBe(200);
    expect((withKey.body as { user: { email: string } }).user.email).toBe(DEMO.grace);

    const wrong = await call("/get-session", { headers: { "x-api-key": `${key.slice(0, -4)}AAAA` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: "API_KEY_INVALID" });
  }, 60_000);
});
