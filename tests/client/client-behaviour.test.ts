import { type AuthClientOptions, createAuthClient } from "@tessera/auth-core/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { decodeBase32, generateTotp } from "../../packages/auth-core/src/crypto/totp.ts";
import { type FailurePlan, type FlakyProxy, startFlakyProxy } from "./flaky-proxy.ts";
import { browserLikeFetch, freePort, type LiveServer, startLiveServer, waitFor } from "./live-server.ts";

/**
 * SPEC §7 "Client behaviour" beyond the store: retries (against a real server that fails a set
 * number of times), X-Retry-After, redirects, the two-factor callback and the fetch hooks.
 */
let live: LiveServer;
let proxy: FlakyProxy | null = null;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});
afterEach(async () => {
  await proxy?.close();
  proxy = null;
});

const PASSWORD = "correct horse battery";
let users = 0;
const nextEmail = () => `behaviour${++users}@example.com`;

async function clientBehind(plan: FailurePlan, options: AuthClientOptions = {}) {
  proxy = await startFlakyProxy(live.origin, plan);
  const browser = browserLikeFetch(live.origin);
  const client = createAuthClient({
    baseURL: proxy.origin,
    ...options,
    fetchOptions: { customFetchImpl: browser.fetch, ...options.fetchOptions },
  });
  return { client, browser, hits: proxy.hits };
}

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]!);

describe("retries", () => {
  it("a GET is retried after a 5xx, with the linear delay, until it succeeds", async () => {
    const { client, hits } = await clientBehind(
      { path: "/get-session", failures: 2, answer: 503 },
      { fetchOptions: { retry: { type: "linear", attempts: 3, delay: 40 } } },
    );
    expect(await client.getSession()).toEqual({ data: null, error: null });
    expect(hits).toHaveLength(3);
    for (const gap of gaps(hits)) expect(gap).toBeGreaterThanOrEqual(38);
  });

  it("exponential delays double up to maxDelay, and the last failure is what the call resolves to", async () => {
    const { client, hits } = await clientBehind(
      { path: "/get-session", failures: 10, answer: 502, body: "<html>bad gateway</html>" },
      { fetchOptions: { retry: { type: "exponential", attempts: 3, baseDelay: 30, maxDelay: 70 } } },
    );
    const result = await client.getSession();
    expect(result.data).toBeNull();
    expect(result.error).toMatchObject({ status: 502, code: "UNKNOWN_ERROR" });
    expect(hits).toHaveLength(4);
    const [first, second, third] = gaps(hits) as [number, number, number];
    expect(first).toBeGreaterThanOrEqual(28);
    expect(second).toBeGreaterThanOrEqual(58);
    expect(third).toBeGreaterThanOrEqual(68);
    expect(third).toBeLessThan(140);
  });

  it("a POST that reached the server is not retried after a 5xx", async () => {
    const { client, hits } = await clientBehind(
      { path: "/sign-up/email", failures: 1, answer: 503 },
      { fetchOptions: { retry: { type: "linear", attempts: 3, delay: 10 } } },
    );
    const result = await client.signUp.email({ name: "Once", email: nextEmail(), password: PASSWORD });
    expect(result.error).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE", message: "failing on purpose" });
    expect(hits).toHaveLength(1);
  });

  it("a POST whose connection dropped mid-request is not retried", async () => {
    const { client, hits } = await clientBehind(
      { path: "/sign-up/email", failures: 1, answer: "drop" },
      { fetchOptions: { retry: { type: "linear", attempts: 3, delay: 10 } } },
    );
    const result = await client.signUp.email({ name: "Once", email: nextEmail(), password: PASSWORD });
    expect(result.error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    expect(hits).toHaveLength(1);
  });

  it("a 429 is retried, even for a POST, after waiting its X-Retry-After", async () => {
    const { client, hits } = await clientBehind(
      {
        path: "/sign-up/email",
        failures: 1,
        answer: 429,
        headers: { "x-retry-after": "1" },
        body: { code: "TOO_MANY_REQUESTS", message: "Too many requests. Please try again later." },
      },
      { fetchOptions: { retry: { type: "linear", attempts: 1, delay: 10 } } },
    );
    const email = nextEmail();
    const result = await client.signUp.email({ name: "Patient", email, password: PASSWORD });
    expect(result.error).toBeNull();
    expect(result.data?.user.email).toBe(email);
    expect(hits).toHaveLength(2);
    expect(gaps(hits)[0]).toBeGreaterThanOrEqual(990);
  });

  it("without retry options nothing is retried; a call can turn retries off", async () => {
    const { client, hits } = await clientBehind(
      { path: "/get-session", failures: 1, answer: 503 },
      { fetchOptions: { retry: { type: "linear", attempts: 3, delay: 10 } } },
    );
    const result = await client.getSession(undefined, { retry: false });
    expect(result.error).toMatchObject({ status: 503 });
    expect(hits).toHaveLength(1);
  });

  it("network errors: a refused connection is retried for GET and POST alike", async () => {
    let attempts = 0;
    const port = await freePort();
    const client = createAuthClient({
      baseURL: `http://127.0.0.1:${port}`,
      fetchOptions: {
        retry: { type: "linear", attempts: 2, delay: 5 },
        customFetchImpl: (input, init) => {
          attempts++;
          return fetch(input, init);
        },
      },
    });
    expect((await client.getSession()).error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    expect(attempts).toBe(3);
    attempts = 0;
    expect((await client.signOut()).error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    expect(attempts).toBe(3);
  });
});

describe("redirects", () => {
  it("an answer { url, redirect: true } navigates, unless the call opts out", async () => {
    const email = nextEmail();
    const navigations: string[] = [];
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      navigate: (url) => navigations.push(url),
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    await client.signUp.email({ name: "Nav", email, password: PASSWORD });
    const signedIn = await client.signIn.email({ email, password: PASSWORD, callbackURL: "/dashboard" });
    expect(signedIn.data).toMatchObject({ redirect: true });
    const url = (signedIn.data as { url: string }).url;
    expect(navigations).toEqual([url]);
    expect(new URL(url, live.origin).pathname).toBe("/dashboard");
    await client.signIn.email({ email, password: PASSWORD, callbackURL: "/dashboard" }, { navigate: false });
    expect(navigations).toEqual([url]);
    await client.signIn.email({ email, password: PASSWORD });
    expect(navigations).toEqual([url]);
  });
});

describe("the second factor", () => {
  it("a twoFactorRedirect answer calls onTwoFactorRedirect and sets no session", async () => {
    const email = nextEmail();
    const owner = browserLikeFetch(live.origin);
    const setup = createAuthClient({ baseURL: live.origin, fetchOptions: { customFetchImpl: owner.fetch } });
    await setup.signUp.email({ name: "Two", email, password: PASSWORD });
    const { data } = await setup.twoFactor.enable({ password: PASSWORD });
    const secret = new URL(data!.totpURI).searchParams.get("secret")!;
    await setup.twoFactor.verifyTotp({ code: generateTotp(decodeBase32(secret)!, new Date()) });

    const calls: unknown[] = [];
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      onTwoFactorRedirect: (context) => calls.push(context),
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    await client.$store.session.refetch();
    const result = await client.signIn.email({ email, password: PASSWORD });
    expect(result).toEqual({
      data: { twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] },
      error: null,
    });
    expect(calls).toEqual([{ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] }]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(browser.count("/get-session")).toBe(1);
    expect(client.$store.session.get().data).toBeNull();
    expect([...browser.cookies.keys()].some((name) => name.endsWith("session_token"))).toBe(false);
  });
});

describe("fetch hooks", () => {
  it("onRequest can add headers; onResponse, onSuccess and onError see each call", async () => {
    const events: string[] = [];
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      fetchOptions: {
        headers: { "x-app": "tests" },
        customFetchImpl: async (input, init) => {
          events.push(
            `sent x-app=${new Headers(init?.headers).get("x-app")} x-hook=${new Headers(init?.headers).get("x-hook")}`,
          );
          return browser.fetch(input, init);
        },
        onRequest: (context) => {
          context.init.headers.set("x-hook", context.path);
        },
        onResponse: (context) => void events.push(`response ${context.response.status}`),
        onSuccess: (context) => void events.push(`success ${JSON.stringify(context.data)}`),
        onError: (context) => void events.push(`error ${context.error.code}`),
      },
    });
    await client.getSession();
    await client.signIn.email({ email: "nobody@example.com", password: "wrong password" });
    expect(events).toEqual([
      "sent x-app=tests x-hook=/get-session",
      "response 200",
      "success null",
      "sent x-app=tests x-hook=/sign-in/email",
      "response 401",
      "error INVALID_EMAIL_OR_PASSWORD",
    ]);
  });

  it("every request is sent with credentials: include", async () => {
    const modes: (RequestCredentials | undefined)[] = [];
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      fetchOptions: {
        customFetchImpl: (input, init) => {
          modes.push(init?.credentials);
          return browser.fetch(input, init);
        },
      },
    });
    await client.getSession();
    await client.signOut();
    await waitFor(() => modes.length === 2);
    expect(modes).toEqual(["include", "include"]);
  });
});
