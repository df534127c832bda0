import { type AuthClientOptions, createAuthClient } from "@tessera/auth-core/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { browserLikeFetch, type LiveServer, startLiveServer, waitFor } from "./live-server.ts";

/**
 * The client in Node against the live standalone server: `{ data, error }` results and the session
 * store (SPEC §7 "Client behaviour": re-read 10 ms after a session-changing call, shared reads).
 */
let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});

let users = 0;
function nextEmail(): string {
  users++;
  return `user${users}@example.com`;
}
const PASSWORD = "correct horse battery";

function makeClient(extra: AuthClientOptions = {}) {
  const browser = browserLikeFetch(live.origin);
  const client = createAuthClient({
    baseURL: live.origin,
    ...extra,
    fetchOptions: { customFetchImpl: browser.fetch, ...extra.fetchOptions },
  });
  return { client, browser };
}

describe("results", () => {
  it("a successful call resolves { data, error: null } with dates as Date", async () => {
    const { client } = makeClient();
    const email = nextEmail();
    const signUp = await client.signUp.email({ name: "Ada", email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user).toMatchObject({ email, name: "Ada", emailVerified: false });
    expect(signUp.data?.user.createdAt).toBeInstanceOf(Date);
    const session = await client.getSession();
    expect(session.data?.user.email).toBe(email);
    expect(session.data?.session.expiresAt).toBeInstanceOf(Date);
  });

  it("an API error resolves { data: null, error: { status, code, message } } from the catalogue", async () => {
    const { client } = makeClient();
    const result = await client.signIn.email({ email: "nobody@example.com", password: "wrong password" });
    expect(result.data).toBeNull();
    expect(result.error).toEqual({
      status: 401,
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
  });

  it("a server that cannot be reached resolves a NETWORK_ERROR with status 0", async () => {
    const client = createAuthClient({ baseURL: "http://127.0.0.1:1" });
    const result = await client.getSession();
    expect(result.data).toBeNull();
    expect(result.error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
  });

  it("getSession answers null data for a signed-out caller", async () => {
    const { client } = makeClient();
    expect(await client.getSession()).toEqual({ data: null, error: null });
  });
});

describe("the session store", () => {
  it("reads once on the first subscription, and concurrent reads share one request", async () => {
    const { client, browser } = makeClient();
    const store = client.$store.session;
    expect(store.get()).toEqual({ data: null, error: null, isPending: true, isRefetching: false });
    const unsubscribe = store.subscribe(() => {});
    const [a, b, c] = await Promise.all([store.refetch(), store.refetch(), store.refetch()]);
    expect(browser.count("/get-session")).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(a).toEqual({ data: null, error: null, isPending: false, isRefetching: false });
    unsubscribe();
  });

  it("is re-read 10 ms after sign-up settles, not before", async () => {
    const { client, browser } = makeClient();
    const store = client.$store.session;
    await store.refetch();
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      // Each re-read shows isRefetching first (the old value kept), then the value read.
      const changed = new Promise<void>((resolve) =>
        store.subscribe(() => {
          if (!store.get().isRefetching) resolve();
        }),
      );
      const email = nextEmail();
      await client.signUp.email({ name: "Grace", email, password: PASSWORD });
      await vi.advanceTimersByTimeAsync(9);
      expect(browser.count("/get-session")).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(browser.count("/get-session")).toBe(2);
      vi.useRealTimers();
      await changed;
      expect(store.get().data?.user.email).toBe(email);
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows sign-in, update-user and sign-out", async () => {
    const { client } = makeClient();
    const email = nextEmail();
    await client.signUp.email({ name: "Linus", email, password: PASSWORD });
    await client.signOut();
    const store = client.$store.session;
    const states: (string | null)[] = [];
    // The values shown in turn (a re-read notifies while in flight and again when it answers).
    store.subscribe(() => {
      const name = store.get().data?.user.name ?? null;
      if (states.length === 0 || states.at(-1) !== name) states.push(name);
    });
    await store.refetch();
    await waitFor(() => states.length === 1);
    await client.signIn.email({ email, password: PASSWORD });
    await waitFor(() => states.length === 2);
    await client.updateUser({ name: "Linus T" });
    await waitFor(() => states.length === 3);
    await client.signOut();
    await waitFor(() => states.length === 4);
    expect(states).toEqual([null, "Linus", "Linus T", null]);
  });

  it("a hydrated value is shown without a request", async () => {
    const { client, browser } = makeClient();
    const email = nextEmail();
    const { data } = await client.signUp.email({ name: "Ken", email, password: PASSWORD });
    const { data: session } = await client.getSession();
    const before = browser.count("/get-session");
    const fresh = createAuthClient({
      baseURL: live.origin,
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    // As a loader would pass it: through JSON, dates as strings.
    fresh.$store.session.hydrate(JSON.parse(JSON.stringify(session)));
    const unsubscribe = fresh.$store.session.subscribe(() => {});
    expect(fresh.$store.session.get().data?.user.id).toBe(data?.user.id);
    expect(fresh.$store.session.get().data?.session.expiresAt).toBeInstanceOf(Date);
    expect(fresh.$store.session.get().isPending).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(browser.count("/get-session")).toBe(before);
    unsubscribe();
  });
});
