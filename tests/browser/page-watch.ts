/**
 * What a page reports while a test drives it: console errors and warnings (React's hydration
 * warnings, CSP reports) and CSP violation events, plus whether React has hydrated the document.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { DEMO, expectText, heading } from "./app-harness.ts";

export interface PageWatch {
  /** Console errors and warnings, each as "type: text". */
  messages: string[];
  /** `securitypolicyviolation` events: "directive blocked-uri". */
  violations: string[];
}

/** Starts recording; call before the first goto. */
export async function watchPage(page: Page): Promise<PageWatch> {
  const watch: PageWatch = { messages: [], violations: [] };
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning")
      watch.messages.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => watch.messages.push(`pageerror: ${error.message}`));
  await page.exposeFunction("__reportViolation", (text: string) => watch.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportViolation(text: string): void }).__reportViolation;
      report(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return watch;
}

/** React has taken over the document: its fiber is on <main>, and a client-side link works. */
export async function expectHydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const main = document.getElementById("main");
      return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
    },
    undefined,
    { timeout: 10_000 },
  );
}

/** Signs in through the form of /sign-in and waits for the home page. */
export async function signIn(page: Page, email: string, password = DEMO.password): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectText(heading(page), /Welcome/);
}

/** The brand and the header's tools share one row: their vertical centres line up. */
export async function expectHeaderOnOneRow(page: Page): Promise<void> {
  const centre = (selector: string) =>
    page.locator(selector).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top + box.height / 2;
    });
  const brand = await centre(".site-header .brand");
  const tools = await centre(".site-header .header-tools");
  expect(Math.abs(brand - tools), `${page.url()}: header wraps`).toBeLessThan(4);
}
