import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { renderMail } from "../../packages/auth-core/src/mail/templates/index.ts";
import { APP_DIR, DEMO, expectAccessible, expectText, screenshot, useTestApp } from "./app-harness.ts";

const app = useTestApp();

/** A UI string as the page must show it: the language's own text, else English (the fallback). */
function text(lang: string, key: string): string {
  const read = (code: string) => {
    const messages = JSON.parse(readFileSync(join(APP_DIR, `app/locales/${code}.json`), "utf8"));
    const value = key
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], messages);
    return typeof value === "string" && value !== "" ? value : null;
  };
  return read(lang) ?? read("en")!;
}

async function htmlLang(page: Page): Promise<string | null> {
  return page.locator("html").getAttribute("lang");
}

async function switchLanguage(page: Page, label: string): Promise<void> {
  await page.locator("#language-select").selectOption({ label });
  await page.locator(".language-form button").click();
  await page.waitForLoadState("load");
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await page.locator("#field-email").fill(email);
  await page.locator("#field-password").fill(DEMO.password);
  // The sign-in form's password button (its other submit button mails a link and code).
  await page.locator("main form button[value=password]").click();
  await page.waitForURL((url) => url.pathname === "/");
}

describe("languages", () => {
  test("Accept-Language chooses the first page's language; the switcher changes it and <html lang>", async () => {
    const page = await app.newPage({ locale: "de-DE" });
    await page.goto("/sign-in");
    expect(await htmlLang(page)).toBe("de");
    await expectText(page.locator("h1"), text("de", "signIn.title"));
    // A URL no route matches: the 404 page in the visitor's language too, the switcher saying which.
    expect((await page.goto("/no-such-page"))?.status()).toBe(404);
    expect(await htmlLang(page)).toBe("de");
    await expectText(page.locator("h1"), text("de", "errorPage.notFound.title"));
    await expectText(page.locator("main p").first(), text("de", "errorPage.notFound.body"));
    expect(await page.locator("#language-select").inputValue()).toBe("de");
    await screenshot(page, "language-not-found-de");
    await page.goto("/sign-in");
    await switchLanguage(page, "Русский");
    expect(await htmlLang(page)).toBe("ru");
    await expectText(page.locator("h1"), text("ru", "signIn.title"));
    await expectText(page.locator("label[for=field-password]"), text("ru", "fields.password"));
    await expectAccessible(page);
    await screenshot(page, "language-sign-in-ru");
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === "lang")?.value).toBe("ru");
    // An error message in the page language too.
    await page.locator("#field-email").fill("nobody@example.com");
    await page.locator("#field-password").fill("wrong password");
    await page.locator("main form button[value=password]").click();
    await expectText(page.locator(".error-summary li"), text("ru", "errors.INVALID_EMAIL_OR_PASSWORD"));
    await screenshot(page, "language-error-ru");
    // The cookie's language on the 404 page (Accept-Language still says German).
    expect((await page.goto("/no-such-page/either"))?.status()).toBe(404);
    await expectText(page.locator("h1"), text("ru", "errorPage.notFound.title"));
    expect(await page.locator("#language-select").inputValue()).toBe("ru");
  });

  test("a signed-in user's choice is stored on the user: it follows them to a new browser and into the next mail", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    expect(await htmlLang(page)).toBe("en");
    await switchLanguage(page, "Українська");
    expect(await htmlLang(page)).toBe("uk");
    await expectText(page.locator("nav.main-nav a").first(), text("uk", "nav.account"));
    const stored = await app.db.collection("users").findOne({ email: DEMO.grace });
    expect(stored?.language).toBe("UKR");
    await screenshot(page, "language-home-uk");

    // A fresh browser with an English Accept-Language and no cookie: the user's language wins.
    const other = await app.newPage({ locale: "en-US" });
    await signIn(other, DEMO.grace);
    // With JavaScript the URL changes before the root re-renders with the signed-in loader's data.
    await expect.poll(() => htmlLang(other)).toBe("uk");
    await other.locator(".sign-out-form button").click();
    await other.waitForURL((url) => url.pathname === "/sign-in");
    await expect.poll(() => htmlLang(other)).toBe("en");

    // The next mail to her is in Ukrainian (English until the core has Ukrainian templates).
    await other.goto("/forgot-password");
    await other.locator("#field-email").fill(DEMO.grace);
    await other.locator("main form button[type=submit]").click();
    await other.waitForURL((url) => url.searchParams.get("sent") === "1");
    const expected = renderMail("reset-password", "UKR", {
      url: "https://example.com",
      appName: "Tessera demo",
      expiresInMinutes: 60,
    });
    const mail = await app.smtp.waitForMail(DEMO.grace, expected.subject);
    expect(mail.subject).toBe(expected.subject);
  });
});
