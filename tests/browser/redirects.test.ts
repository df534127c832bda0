import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, useOAuthServer } from "#test/oauth-server.ts";
import { DEMO, expectText, heading, screenshot, totpNow, useTestApp } from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

/**
 * A `redirectTo`/`next` value in a link the attacker hands out never takes the
 * browser off the app. Each value is written as it appears in the link's query; Chromium decodes
 * it, the app decides, and Chromium follows — TAB/LF/CR dropped, `\` read as `/`.
 */

const PAYLOADS = [
  "/%09/evil.example",
  "/%0A/evil.example",
  "/%0D/evil.example",
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "/%2F/evil.example",
  "//evil.example",
  "/\\evil.example",
  "/.//evil.example",
  "javascript:alert(document.domain)",
  "https://evil.example/",
  "%2F%2Fevil.example",
];

const oauth = useOAuthServer();
const app = useTestApp(
  () => ({
    GITHUB_CLIENT_ID: TEST_CLIENT_ID,
    GITHUB_CLIENT_SECRET: TEST_CLIENT_SECRET,
    GITHUB_ENDPOINTS: JSON.stringify(oauth.endpoints("github")),
  }),
  { testTimeout: 180_000 },
);

/** A page whose requests to evil.example are answered by a stand-in, so landing there is visible. */
async function guardedPage(options: { javaScript?: boolean } = {}): Promise<Page> {
  const page = await app.newPage(options);
  await page.context().route(
    (url) => url.hostname.endsWith("evil.example"),
    (route) => route.fulfill({ contentType: "text/html", body: "<title>evil</title><h1>Evil</h1>" }),
  );
  return page;
}

async function expectOnApp(page: Page, payload: string): Promise<void> {
  await page.waitForLoadState("load");
  expect(new URL(page.url()).origin, payload).toBe(app.url);
  expect(await page.title(), payload).not.toBe("evil");
}

describe("a redirectTo or next value never leaves the app", () => {
  test("sign-in: a signed-in user opening the link, and a user signing in through it", async () => {
    const signedIn = await guardedPage({ javaScript: false });
    await signIn(signedIn, DEMO.grace, DEMO.password);
    for (const payload of PAYLOADS) {
      await signedIn.goto(`/sign-in?redirectTo=${payload}`);
      await expectOnApp(signedIn, payload);
      expect(new URL(signedIn.url()).pathname, payload).toBe("/");
    }
    // One page for every payload, signed out (cookies cleared) after each: a new visitor each time,
    // whose browser already has the app's scripts.
    const page = await guardedPage();
    for (const payload of PAYLOADS.slice(0, 6)) {
      await page.goto(`/sign-in?redirectTo=${payload}`);
      await page.getByLabel("Email").fill(DEMO.alan);
      await page.getByLabel("Password").fill(DEMO.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expectText(heading(page), "Welcome, Alan Turing");
      await expectOnApp(page, payload);
      await page.context().clearCookies();
    }
  });

  test("sign-up: a signed-in user opening the link, and a new user signing up through it", async () => {
    const signedIn = await guardedPage({ javaScript: false });
    await signIn(signedIn, DEMO.grace, DEMO.password);
    for (const payload of PAYLOADS) {
      await signedIn.goto(`/sign-up?redirectTo=${payload}`);
      await expectOnApp(signedIn, payload);
    }
    const page = await guardedPage({ javaScript: false });
    await page.goto(`/sign-up?redirectTo=${PAYLOADS[0]}`);
    await page.getByLabel("Name").fill("Redirect Tester");
    await page.getByLabel("Email").fill("redirect-tester@example.com");
    await page.getByLabel("Password").fill("a long enough password 1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectOnApp(page, PAYLOADS[0]!);
    await expectText(heading(page), /Welcome|Verify/);
  });

  test("two-factor: the code page goes on to a safe place only", async () => {
    // Barbara turns on TOTP through the core's endpoints (her session from a plain fetch).
    const api = async (path: string, body: unknown, cookie = "") => {
      const response = await fetch(`${app.url}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url, cookie },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(200);
      const cookies = response.headers.getSetCookie().map((line) => line.split(";")[0]);
      return { body: (await response.json()) as Record<string, unknown>, cookie: cookies.join("; ") };
    };
    const session = await api("/sign-in/email", { email: DEMO.barbara, password: DEMO.password });
    const enabled = await api("/two-factor/enable", { password: DEMO.password }, session.cookie);
    const secret = new URL(String(enabled.body.totpURI)).searchParams.get("secret")!;
    await api("/two-factor/verify-totp", { code: await totpNow(secret) }, session.cookie);
    let codes = enabled.body.backupCodes as string[];
    const page = await guardedPage({ javaScript: false });
    for (const [index, payload] of PAYLOADS.entries()) {
      if (index === 8) {
        const fresh = await api(
          "/two-factor/generate-backup-codes",
          { password: DEMO.password },
          session.cookie,
        );
        codes = fresh.body.backupCodes as string[];
      }
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(DEMO.barbara);
      await page.getByLabel("Password").fill(DEMO.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/two-factor");
      await page.goto(`/two-factor?methods=totp&method=backup&redirectTo=${payload}`);
      await page.getByLabel("Backup code").fill(codes[index % 8]!);
      await page.getByRole("button", { name: "Verify" }).click();
      await expectText(heading(page), "Welcome, Barbara Liskov");
      await expectOnApp(page, payload);
      await page.context().clearCookies();
    }
  });

  test("language: the switcher's POST goes back to a safe place only", async () => {
    const page = await guardedPage();
    for (const payload of PAYLOADS) {
      await page.goto("/sign-in");
      // The header's form, built outside React so that no re-render puts the current path back.
      const posted = page.waitForResponse((response) => response.url().endsWith("/language"));
      await page.evaluate((value) => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = "/language";
        for (const [name, text] of [
          ["lang", "de"],
          ["redirectTo", decodeURIComponent(value)],
        ]) {
          const input = document.createElement("input");
          input.type = "hidden";
          input.name = name!;
          input.value = text!;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      }, payload);
      expect((await posted).status(), payload).toBe(302);
      await page.waitForURL((url) => url.pathname !== "/sign-in" || url.origin !== app.url);
      await expectOnApp(page, payload);
    }
  });

  test("social: the provider's round trip ends on the app, signed in", async () => {
    const page = await guardedPage();
    for (const [index, payload] of PAYLOADS.slice(0, 6).entries()) {
      oauth.setIdentity("github", {
        id: `9${index}`,
        email: `redirect-social-${index}@example.com`,
        name: `Social Redirect ${index}`,
        emailVerified: true,
      });
      await page.goto(`/sign-in?redirectTo=${payload}`);
      await page.getByRole("button", { name: "Continue with GitHub" }).click();
      await expectText(heading(page), `Welcome, Social Redirect ${index}`);
      await expectOnApp(page, payload);
      await page.context().clearCookies();
    }
    // A same-site path the core's stricter rule refuses (an encoded backslash) ends on the app's
    // error page with the code, not on a 500.
    await page.goto("/sign-in?redirectTo=/%255Cevil.example");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.waitForURL((url) => url.pathname === "/error");
    await expectOnApp(page, "/%255Cevil.example");
    await expectText(page.locator("main code"), "INVALID_CALLBACK_URL");
    await expectText(
      page.getByRole("alert"),
      "The page to come back to after signing in is not allowed. Start again from the sign-in page.",
    );
  });

  test("verify-email: the Continue link (JavaScript off, as in a new tab) stays on the app", async () => {
    const page = await guardedPage({ javaScript: false });
    await signIn(page, DEMO.linus, DEMO.password);
    for (const payload of PAYLOADS) {
      await page.goto(`/verify-email?next=${payload}`);
      const href = await page.getByRole("link", { name: "Continue" }).getAttribute("href");
      expect(new URL(href ?? "", app.url).origin, payload).toBe(app.url);
      await page.getByRole("link", { name: "Continue" }).click();
      await expectOnApp(page, payload);
    }
    await screenshot(page, "redirects-verify-email-next");
  });
});
