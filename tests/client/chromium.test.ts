import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, bundlePage, startAppServer } from "./browser-page/app-server.ts";
import { freePort, type LiveServer, startLiveServer } from "./live-server.ts";

/**
 * The client and useSession in real Chromium (Debian's, driven by playwright-core; nothing is
 * downloaded): a page bundled with esbuild signs up, shows the session, signs out — with real
 * cookies — once from the API's own origin (the app mounts auth.handler) and once from another
 * origin through CORS. A page on an untrusted origin is refused by the browser.
 */
let live: LiveServer;
let sameOrigin: AppServer;
let crossOrigin: AppServer;
let untrusted: AppServer;
let browser: Browser;

beforeAll(async () => {
  const files = await bundlePage(new URL("./browser-page/app.ts", import.meta.url));
  const [samePort, crossPort, untrustedPort] = [await freePort(), await freePort(), await freePort()];
  live = await startLiveServer(
    {},
    { TESSERA_TRUSTED_ORIGINS: `http://127.0.0.1:${samePort},http://127.0.0.1:${crossPort}` },
  );
  sameOrigin = await startAppServer(samePort, files, live.server.auth);
  crossOrigin = await startAppServer(crossPort, files, null);
  untrusted = await startAppServer(untrustedPort, files, null);
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([sameOrigin?.close(), crossOrigin?.close(), untrusted?.close()]);
  await live?.close();
});

async function shows(page: Page, id: string, text: string): Promise<void> {
  await page.locator(`#${id}`, { hasText: text }).waitFor({ timeout: 15_000 });
}

async function sessionCookie(context: BrowserContext) {
  const cookies = await context.cookies(live.origin);
  return cookies.find((cookie) => cookie.name === "tessera.session_token") ?? null;
}

/** Sign up, see the session (also after a reload), sign out: the flow every case runs. */
async function signUpAndOut(url: string, email: string): Promise<{ apiOrigins: Set<string> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const apiOrigins = new Set<string>();
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/")) apiOrigins.add(new URL(request.url()).origin);
  });
  try {
    await page.goto(`${url}&email=${encodeURIComponent(email)}`);
    await shows(page, "session", "signed out");
    await page.click("#sign-up");
    await shows(page, "session", `signed in as ${email}`);
    expect(await sessionCookie(context)).toMatchObject({ httpOnly: true });
    await page.reload();
    await shows(page, "session", `signed in as ${email}`);
    await page.click("#sign-out");
    await shows(page, "session", "signed out");
    expect(await sessionCookie(context)).toBeNull();
    return { apiOrigins };
  } finally {
    await context.close();
  }
}

describe("the client in Chromium", () => {
  it("from the API's own origin: sign up, session shown by useSession, sign out", async () => {
    const { apiOrigins } = await signUpAndOut(`${sameOrigin.origin}/?`, "same@example.com");
    expect([...apiOrigins]).toEqual([sameOrigin.origin]);
    expect(await live.db.collection("users").countDocuments({ email: "same@example.com" })).toBe(1);
  }, 60_000);

  it("from another trusted origin through CORS, with credentials", async () => {
    const url = `${crossOrigin.origin}/?api=${encodeURIComponent(live.origin)}`;
    const { apiOrigins } = await signUpAndOut(url, "cross@example.com");
    expect([...apiOrigins]).toEqual([live.origin]);
    expect(await live.db.collection("users").countDocuments({ email: "cross@example.com" })).toBe(1);
  }, 60_000);

  it("from an untrusted origin the browser gets no answer, and no user is created", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${untrusted.origin}/?api=${encodeURIComponent(live.origin)}&email=evil@example.com`);
      await shows(page, "error", "NETWORK_ERROR");
      await page.click("#sign-up");
      await shows(page, "error", "NETWORK_ERROR 0");
      expect(await live.db.collection("users").countDocuments({ email: "evil@example.com" })).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
