import { createAuthClient } from "@tessera/auth-core/client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { browserLikeFetch, type LiveServer, startLiveServer, waitFor } from "./live-server.ts";

/**
 * SPEC §7: the session is re-read when the window regains focus (at most once per 5 s cooldown)
 * and when the browser comes back online — while someone is subscribed. Node has no window: the
 * test gives it the two event sources a browser has (EventTargets named window and document); the
 * reads go to the live server. Fake timers move the clock the cooldown is measured on.
 */
let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});

const scope = globalThis as { window?: EventTarget; document?: EventTarget & { visibilityState: string } };
afterEach(() => {
  vi.useRealTimers();
  delete scope.window;
  delete scope.document;
});

function installBrowserEvents() {
  scope.window = new EventTarget();
  scope.document = Object.assign(new EventTarget(), { visibilityState: "visible" });
  return {
    focus: () => scope.window!.dispatchEvent(new Event("focus")),
    becomeVisible: () => scope.document!.dispatchEvent(new Event("visibilitychange")),
    online: () => scope.window!.dispatchEvent(new Event("online")),
  };
}

describe("re-reading the session in a browser", () => {
  it("on focus at most once per 5 s cooldown, and on coming back online", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const events = installBrowserEvents();
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    const unsubscribe = client.$store.session.subscribe(() => {});
    await waitFor(() => browser.answered("/get-session") === 1);

    vi.advanceTimersByTime(4_000);
    events.focus();
    events.becomeVisible();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(browser.count("/get-session")).toBe(1);

    vi.advanceTimersByTime(1_000);
    events.focus();
    events.becomeVisible();
    await waitFor(() => browser.answered("/get-session") === 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(browser.count("/get-session")).toBe(2);

    events.online();
    await waitFor(() => browser.answered("/get-session") === 3);

    unsubscribe();
    vi.advanceTimersByTime(10_000);
    events.focus();
    events.online();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(browser.count("/get-session")).toBe(3);
  });

  it("not at all when the options turn it off", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const events = installBrowserEvents();
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      session: { refetchOnWindowFocus: false, refetchWhenOnline: false },
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    const unsubscribe = client.$store.session.subscribe(() => {});
    await waitFor(() => browser.answered("/get-session") === 1);
    vi.advanceTimersByTime(60_000);
    events.focus();
    events.online();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(browser.count("/get-session")).toBe(1);
    unsubscribe();
  });
});
