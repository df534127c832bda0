import type { AuthOptions } from "@tessera/auth-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type CallResult, TestBrowser } from "./browser.ts";
import {
  type AuthorizeResult,
  type OAuthServer,
  startOAuthServer,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
} from "./oauth-server.ts";
import { createTestAuth, standIn, TEST_ORIGIN, type TestAuth } from "./test-auth.ts";

/** Shared by the social feature's tests: an auth instance whose providers point at the test server. */

export const API = `${TEST_ORIGIN}/api/auth`;
export const ERROR_PAGE = `${API}/error`;

type Overrides = Omit<Partial<AuthOptions>, "database">;

export function providerConfig(server: OAuthServer, id: string, extra: Record<string, unknown> = {}) {
  return {
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    endpoints: server.endpoints(id),
    ...extra,
  };
}

export function genericConfig(server: OAuthServer, providerId: string, extra: Record<string, unknown> = {}) {
  return {
    providerId,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    discoveryUrl: server.discoveryUrl(providerId),
    ...extra,
  };
}

/** An auth instance with the given built-in providers (default: github) pointed at the server. */
export async function createSocialAuth(
  server: OAuthServer,
  providers: string[] = ["github"],
  overrides: Overrides = {},
): Promise<TestAuth> {
  const socialProviders = Object.fromEntries(providers.map((id) => [id, providerConfig(server, id)]));
  return createTestAuth({ socialProviders, ...overrides });
}

/**
 * The social feature's fixture: one OAuth test server and one auth instance (with `providers`
 * pointed at it) for a whole test file, started before its tests and closed after them; the
 * server's scripted behaviour is reset after each test. The returned values stand for both.
 */
export function useSocialTestbed(
  providers: string[],
  overrides: Overrides = {},
): { server: OAuthServer; t: TestAuth } {
  let server: OAuthServer | undefined;
  let t: TestAuth | undefined;
  beforeAll(async () => {
    server = await startOAuthServer();
    t = await createSocialAuth(server, providers, overrides);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });
  afterEach(() => server?.reset());
  const unopened = "useSocialTestbed: started in beforeAll; use it in a test";
  return { server: standIn(() => server, unopened), t: standIn(() => t, unopened) };
}

/** The path under the API base of an absolute callback URL (what the browser follows back). */
export function apiPath(url: string): string {
  if (!url.startsWith(API)) throw new Error(`not an API URL: ${url}`);
  return url.slice(API.length);
}

export interface FlowResult {
  start: CallResult<{ url: string; redirect: boolean }>;
  authorize: AuthorizeResult;
  callback: CallResult;
  /** Where the callback sent the browser. */
  location: string;
}

/** The browser's half of the callback: a GET, or Apple's form POST and the GET it is turned into. */
export async function returnToCallback(browser: TestBrowser, result: AuthorizeResult): Promise<CallResult> {
  if (result.method === "GET") return browser.get(apiPath(result.callbackURL));
  const posted = await browser.request("POST", apiPath(result.callbackURL), {
    rawBody: new URLSearchParams(result.form ?? {}).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(posted.status).toBe(302);
  return browser.get(apiPath(posted.headers.get("location") ?? ""));
}

/** POST /sign-in/social (or /link-social), consent at the provider, back to the callback. */
export async function runSocialFlow(
  browser: TestBrowser,
  server: OAuthServer,
  body: Record<string, unknown>,
  path = "/sign-in/social",
): Promise<FlowResult> {
  const start = await browser.post<{ url: string; redirect: boolean }>(path, body);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const authorize = await server.authorize(start.body.url);
  const callback = await returnToCallback(browser, authorize);
  expect(callback.status).toBe(302);
  return { start, authorize, callback, location: callback.headers.get("location") ?? "" };
}

export function newBrowser(t: TestAuth, origin?: string | null): TestBrowser {
  return origin === undefined ? new TestBrowser(t.auth) : new TestBrowser(t.auth, origin);
}

/** The error code a redirect carries, and the page it goes to. */
export function errorOf(location: string): {
  page: string;
  error: string | null;
  description: string | null;
} {
  const url = new URL(location, TEST_ORIGIN);
  return {
    page: `${url.origin}${url.pathname}`,
    error: url.searchParams.get("error"),
    description: url.searchParams.get("error_description"),
  };
}

export async function countDocs(t: TestAuth): Promise<{ users: number; accounts: number; sessions: number }> {
  const [users, accounts, sessions] = await Promise.all([
    t.db.collection("users").countDocuments(),
    t.db.collection("accounts").countDocuments(),
    t.db.collection("sessions").countDocuments(),
  ]);
  return { users, accounts, sessions };
}
