import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestAuth, TEST_ORIGIN, type TestAuth } from "#test/test-auth.ts";
import { defineContract } from "../contracts/contract.ts";
import { coreCallerResolvers } from "../create-auth.ts";
import { AuthError } from "../errors/auth-error.ts";
import { type AnyEndpoint, defineEndpoint, htmlPage, redirectTo } from "./define-endpoint.ts";
import { type AuthHandler, createHandler } from "./handler.ts";
import { createMemoryRateLimiter } from "./rate-limit.ts";

/**
 * The engine with synthetic endpoints: the rules every endpoint inherits (callback fields, error
 * mapping, HEAD, outcomes), including fields no real endpoint has yet (errorCallbackURL,
 * newUserCallbackURL).
 */
const callbackFields = {
  callbackURL: z.string().optional(),
  redirectTo: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
};
let thrown: unknown = null;
const databaseDown = () =>
  Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:27017"), { name: "MongoNetworkError" });

const testContract = {
  errors: [],
  summary: "A synthetic endpoint of the engine's tests.",
  tags: ["test"],
} as const;

const ENDPOINTS: readonly AnyEndpoint[] = [
  defineEndpoint(
    defineContract({
      ...testContract,
      name: "post",
      method: "POST",
      path: "/t/post",
      auth: "none",
      body: z.strictObject(callbackFields),
      response: z.strictObject({ done: z.literal(true) }),
    }),
    {
      async handler() {
        return { done: true } as const;
      },
    },
  ),
  defineEndpoint(
    defineContract({
      ...testContract,
      name: "redirect",
      method: "GET",
      path: "/t/redirect",
      auth: "none",
      query: z.strictObject(callbackFields),
      response: z.never(),
      answers: "json-or-redirect",
    }),
    {
      async handler(ctx) {
        return redirectTo(ctx.query.callbackURL ?? "/");
      },
    },
  ),
  defineEndpoint(
    defineContract({
      ...testContract,
      name: "page",
      method: "GET",
      path: "/t/page",
      auth: "none",
      response: z.string(),
      answers: "html",
    }),
    {
      async handler() {
        return htmlPage("<p>page</p>");
      },
    },
  ),
  defineEndpoint(
    defineContract({
      ...testContract,
      name: "throws",
      method: "POST",
      path: "/t/throws",
      auth: "none",
      response: z.never(),
      errors: ["SESSION_NOT_FOUND"],
    }),
    {
      async handler(ctx) {
        ctx.cookies.set("tessera.marker", "1");
        throw thrown;
      },
    },
  ),
];

let t: TestAuth;
let handle: AuthHandler;
beforeAll(async () => {
  t = await createTestAuth({ trustedOrigins: ["https://app.example.com"] });
  handle = createHandler(t.auth.context, ENDPOINTS, createMemoryRateLimiter(), coreCallerResolvers);
});
afterAll(async () => {
  await t.close();
});

const call = async (method: string, path: string, body?: unknown) => {
  const response = await handle(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { remoteAddress: "127.0.0.1" },
  );
  const text = await response.text();
  return {
    response,
    text,
    json: text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
  };
};

describe("callback-type fields", () => {
  it.each([
    ["callbackURL", "INVALID_CALLBACK_URL", "Invalid callbackURL"],
    ["redirectTo", "INVALID_REDIRECT_URL", "Invalid redirectURL"],
    ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL", "Invalid errorCallbackURL"],
    ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL", "Invalid newUserCallbackURL"],
  ])("refuses an untrusted %s in a body or a query with 403 %s", async (field, code, message) => {
    const inBody = await call("POST", "/t/post", { [field]: "https://evil.com/x" });
    expect({ status: inBody.response.status, body: inBody.json }).toEqual({
      status: 403,
      body: { code, message },
    });
    const inQuery = await call("GET", `/t/redirect?${field}=${encodeURIComponent("//evil.com")}`);
    expect({ status: inQuery.response.status, body: inQuery.json }).toEqual({
      status: 403,
      body: { code, message },
    });
    const trusted = await call("POST", "/t/post", { [field]: "https://app.example.com/x" });
    expect(trusted.response.status).toBe(200);
  });
});

describe("outcomes", () => {
  it("answers a redirect with 302 and Location, and an HTML page with its content type", async () => {
    const redirect = await call("GET", "/t/redirect?callbackURL=%2Fdone");
    expect(redirect.response.status).toBe(302);
    expect(redirect.response.headers.get("location")).toBe("/done");
    const page = await call("GET", "/t/page");
    expect(page.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toBe("<p>page</p>");
  });

  it("answers HEAD with the GET status and headers and no body", async () => {
    const head = await call("HEAD", "/t/page");
    expect(head.response.status).toBe(200);
    expect(head.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(head.text).toBe("");
  });
});

describe("error mapping", () => {
  it("answers an AuthError with its catalogue entry and keeps the cookies set before it", async () => {
    thrown = new AuthError("SESSION_NOT_FOUND");
    const res = await call("POST", "/t/throws", {});
    expect({ status: res.response.status, body: res.json }).toEqual({
      status: 400,
      body: { code: "SESSION_NOT_FOUND", message: "Session not found" },
    });
    expect(res.response.headers.getSetCookie().some((line) => line.startsWith("tessera.marker=1"))).toBe(
      true,
    );
  });

  it.each([
    ["a raw driver outage", databaseDown()],
    [
      "an outage wrapped in a catalogue error",
      new AuthError("FAILED_TO_CREATE_SESSION", { cause: databaseDown() }),
    ],
    ["an outage wrapped twice", new Error("outer", { cause: new Error("inner", { cause: databaseDown() }) })],
  ])("answers %s with 503 SERVICE_UNAVAILABLE, no internals", async (_name, error) => {
    thrown = error;
    const res = await call("POST", "/t/throws", {});
    expect({ status: res.response.status, body: res.json }).toEqual({
      status: 503,
      body: { code: "SERVICE_UNAVAILABLE", message: "Service unavailable" },
    });
    expect(res.text).not.toMatch(/ECONNREFUSED|10\.1\.2\.3/);
  });

  it.each([
    ["an Error", new Error("secret internals at /srv/app.ts:12")],
    ["a string", "secret internals"],
    ["null", null],
    ["a frozen object", Object.freeze({ message: "secret internals" })],
  ])("answers %s thrown by a handler with a generic 500", async (_name, error) => {
    thrown = error;
    const res = await call("POST", "/t/throws", {});
    expect({ status: res.response.status, body: res.json }).toEqual({
      status: 500,
      body: { code: "INTERNAL_SERVER_ERROR", message: "Internal server error" },
    });
    expect(res.text).not.toContain("secret");
  });
});
