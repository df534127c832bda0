import { describe, expect, test } from "vitest";
import { DEMO, expectText, heading, screenshot, useTestApp } from "./app-harness.ts";
import { expectHeaderOnOneRow, expectHydrated, signIn, watchPage } from "./page-watch.ts";

/**
 * The newcomer's noise, where the newcomer saw it: `pnpm dev` (Vite's development server,
 * React's development build, which prints hydration warnings) in Chromium at 1,100 px. Every page
 * hydrates with no React warning and no CSP violation (the development CSP lets Vite's HMR socket and
 * injected styles through), the header stays on one row, and an unverified address is a warning.
 */
const app = useTestApp({ NODE_ENV: "development" }, { testTimeout: 240_000 });

const WIDTH = 1100;

describe("the development server in Chromium at 1,100 px", () => {
  test("every page hydrates without a React warning or a CSP violation, the header on one row", async () => {
    const page = await app.newPage();
    await page.setViewportSize({ width: WIDTH, height: 800 });
    const watch = await watchPage(page);
    const visit = async (path: string, shot?: string) => {
      await page.goto(path);
      await expectHydrated(page);
      await expectHeaderOnOneRow(page);
      if (shot) {
        await screenshot(page, shot);
        await page.screenshot({ path: `/tmp/h4/${shot}.png` });
      }
    };
    for (const path of ["/", "/sign-in", "/sign-up", "/forgot-password", "/reset-password?token=x"])
      await visit(path);
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    await visit("/", "dev-home-admin-1100");
    for (const path of [
      "/account",
      "/account/email",
      "/account/password",
      "/account/sessions",
      "/account/two-factor",
      "/account/api-keys",
      "/organizations",
      "/admin",
      "/admin/users",
    ])
      await visit(path);
    await visit("/organizations", "dev-organizations-1100");
    await page.getByRole("link", { name: "Account" }).first().click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expectHeaderOnOneRow(page);
    await page.waitForTimeout(500);
    const noise = watch.messages.filter((text) =>
      /Warning:|hydrat|Extra attributes|did not match|Content Security Policy/i.test(text),
    );
    expect(noise).toEqual([]);
    expect(watch.violations).toEqual([]);
  });

  test("an unverified address is shown as a warning, not as a success", async () => {
    const page = await app.newPage();
    await page.setViewportSize({ width: WIDTH, height: 800 });
    const watch = await watchPage(page);
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Una Verified");
    await page.getByLabel("Email").fill("una@example.com");
    await page.getByLabel("Password").fill("a long enough password 5");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(heading(page), "Welcome, Una Verified");
    const notice = page.getByText("Your email address is not verified yet");
    await expect.poll(() => notice.getAttribute("class")).toBe("warning");
    const colour = await notice.evaluate((element) => getComputedStyle(element).borderLeftColor);
    expect(colour).toBe("rgb(185, 28, 28)");
    await expectHeaderOnOneRow(page);
    await screenshot(page, "dev-unverified-warning-1100");
    await page.screenshot({ path: "/tmp/h4/dev-unverified-warning-1100.png" });
    expect(watch.messages.filter((text) => /Warning:|hydrat|Extra attributes/i.test(text))).toEqual([]);
  });
});
