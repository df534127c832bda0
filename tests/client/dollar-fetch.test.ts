import { createAuthClient } from "@tessera/auth-core/client";
import { afterEach, describe, expect, it } from "vitest";
import { type FlakyProxy, startFlakyProxy } from "./flaky-proxy.ts";
import { browserLikeFetch, liveServerForFile, waitFor } from "./live-server.ts";

/**
 * `client.$fetch(path, options)` calls any path under the base path as the methods do (base URL,
 * fetch hooks, retries, store re-reads), and every call takes its own `onSuccess`/`onError`.
 */
const live = liveServerForFile();
let proxy: FlakyProxy | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
});

const PASSWORD = "correct horse battery";

function makeClient(events: string[] = []) {
  const browser = browserLikeFetch(live.origin);
  const client = createAuthClient({
    baseURL: live.origin,
    fetchOptions: {
      customFetchImpl: browser.fetch,
      headers: { "x-app": "tests" },
      onRequest: (context) => void events.push(`request ${context.init.method} ${context.url}`),
      onSuccess: () => void events.push("global success"),
      onError: (context) => void events.push(`global error ${context.error.code}`),
    },
  });
  return { client, browser };
}

describe("$fetch", () => {
  it("POSTs a body and GETs without one, under the base URL with the client's hooks, dates revived", async () => {
    const events: string[] = [];
    const { client } = makeClient(events);
    const signUp = await client.$fetch<{ user: { email: string; createdAt: Date } }>("/sign-up/email", {
      body: { name: "Fetch", email: "fetch@example.com", password: PASSWORD },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user.email).toBe("fetch@example.com");
    expect(signUp.data?.user.createdAt).toBeInstanceOf(Date);
    const session = await client.$fetch<{ user: { email: string } }>("/get-session");
    expect(session.data?.user.email).toBe("fetch@example.com");
    const role = await client.$fetch("/organization/get-active-member-role", {
      query: { organizationId: "x" },
    });
    expect(role.error).toEqual({
      status: 403,
      code: "NOT_A_MEMBER_OF_ORGANIZATION",
      message: "You are not a member of this organization",
    });
    expect(events).toEqual([
      `request POST ${live.origin}/api/auth/sign-up/email`,
      "global success",
      `request GET ${live.origin}/api/auth/get-session`,
      "global success",
      `request GET ${live.origin}/api/auth/organization/get-active-member-role?organizationId=x`,
      "global error NOT_A_MEMBER_OF_ORGANIZATION",
    ]);
  });

  it("re-reads the session after a call that changes it, as the methods do", async () => {
    const { client, browser } = makeClient();
    await client.$fetch("/sign-up/email", {
      body: { name: "Store", email: "store@example.com", password: PASSWORD },
    });
    // Past the sign-up's own re-read signal (10 ms; the store was unread then, so it was left alone).
    await new Promise((resolve) => setTimeout(resolve, 40));
    const unsubscribe = client.$store.session.subscribe(() => {});
    await waitFor(() => client.$store.session.get().data?.user.email === "store@example.com");
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(browser.count("/get-session")).toBe(1);
    await client.$fetch("/sign-out", { method: "POST" });
    await waitFor(() => client.$store.session.get().data === null);
    expect(browser.count("/get-session")).toBe(2);
    unsubscribe();
  });

  it("follows the client's retry rules: a GET after a 503 is sent again", async () => {
    proxy = await startFlakyProxy(live.origin, { path: "/get-session", failures: 2, answer: 503 });
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: proxy.origin,
      fetchOptions: { customFetchImpl: browser.fetch, retry: { type: "linear", attempts: 2, delay: 10 } },
    });
    expect(await client.$fetch("/get-session")).toEqual({ data: null, error: null });
    expect(proxy.hits).toHaveLength(3);
  });

  it("answers a path the API does not have with its 404, never throwing", async () => {
    const { client } = makeClient();
    const result = await client.$fetch("/no-such-endpoint");
    expect(result.data).toBeNull();
    expect(result.error?.status).toBe(404);
  });
});

describe("per-call onSuccess and onError", () => {
  it("run for their own call only, after the client's hooks, with the data or the catalogue error", async () => {
    const events: string[] = [];
    const { client } = makeClient(events);
    await client.signUp.email({ name: "Per Call", email: "percall@example.com", password: PASSWORD });
    events.length = 0;
    await client.signIn.email(
      { email: "percall@example.com", password: "wrong password" },
      {
        onSuccess: () => void events.push("call success"),
        onError: (context) =>
          void events.push(
            `call error ${context.error.status} ${context.error.code} ${context.error.message}`,
          ),
      },
    );
    await client.signIn.email(
      { email: "percall@example.com", password: PASSWORD },
      {
        onSuccess: (context) =>
          void events.push(`call success ${(context.data as { user: { email: string } }).user.email}`),
        onError: () => void events.push("call error"),
      },
    );
    await client.getSession();
    expect(events).toEqual([
      `request POST ${live.origin}/api/auth/sign-in/email`,
      "global error INVALID_EMAIL_OR_PASSWORD",
      "call error 401 INVALID_EMAIL_OR_PASSWORD Invalid email or password",
      `request POST ${live.origin}/api/auth/sign-in/email`,
      "global success",
      "call success percall@example.com",
      `request GET ${live.origin}/api/auth/get-session`,
      "global success",
    ]);
  });

  it("are taken by $fetch too", async () => {
    const seen: string[] = [];
    const { client } = makeClient();
    await client.$fetch("/sign-in/email", {
      body: { email: "nobody@example.com", password: "wrong password" },
      onError: (context) => void seen.push(`error ${context.response?.status}`),
    });
    await client.$fetch("/get-session", {
      onSuccess: (context) => void seen.push(`success ${context.data}`),
    });
    expect(seen).toEqual(["error 401", "success null"]);
  });
});
