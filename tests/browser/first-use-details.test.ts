import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { DEMO, expectPath, expectText, screenshot, totpNow, useTestApp, waitText } from "./app-harness.ts";
import { expectHeaderOnOneRow, signIn } from "./page-watch.ts";

/**
 * Details a first-time user of the Remix demo met: a button link white on white, empty fields answered
 * as wrong ones, a second-factor page with no sign-in behind it, 404s logged as crashes, and a
 * Russian header on two rows.
 */

const SHOTS = "/tmp/f2";
const app = useTestApp({}, { testTimeout: 120_000 });
beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});

const errorUnder = (page: Page, name: string) => page.locator(`#field-${name}-error`);
const summary = (page: Page) => page.getByTestId("error-summary");

interface Colours {
  color: string;
  background: string;
}
const coloursOf = (page: Page, name: string): Promise<Colours> =>
  page
    .locator("main")
    .getByRole("link", { name, exact: true })
    .evaluate((element) => {
      const style = getComputedStyle(element);
      return { color: style.color, background: style.backgroundColor };
    });

describe("details a first-time user of the demo meets", () => {
  test("the invitation's Sign up link (a secondary button) keeps its blue text on white, hovered too", async () => {
    const invitation = await app.db.collection("invitations").findOne({ email: DEMO.invitee });
    const page = await app.newPage();
    await page.goto(`/accept-invitation/${invitation?._id}`);
    const signUp = await coloursOf(page, "Sign up");
    expect(signUp).toEqual({ color: "rgb(29, 78, 216)", background: "rgb(255, 255, 255)" });
    expect(await coloursOf(page, "Sign in")).toEqual({
      color: "rgb(255, 255, 255)",
      background: "rgb(29, 78, 216)",
    });
    await page.locator("main").getByRole("link", { name: "Sign up", exact: true }).hover();
    expect(await coloursOf(page, "Sign up")).toEqual({
      color: "rgb(30, 58, 138)",
      background: "rgb(239, 246, 255)",
    });
    await page.locator("main").getByRole("link", { name: "Sign in", exact: true }).hover();
    expect(await coloursOf(page, "Sign in")).toEqual({
      color: "rgb(255, 255, 255)",
      background: "rgb(30, 58, 138)",
    });
    await page.screenshot({ path: `${SHOTS}/accept-signed-out.png` });
  });

  test("a 404 is one short log line without its query; no stack", async () => {
    const before = app.log().length;
    const response = await fetch(`${app.url}/no-such-page?token=s3cret-token`);
    expect(response.status).toBe(404);
    await new Promise((done) => setTimeout(done, 500));
    const log = app.log().slice(before);
    expect(log).not.toMatch(/No route matches URL|at .*\.js:\d+|s3cret-token/);
    expect(log.match(/404 GET \/no-such-page/g)).toEqual(["404 GET /no-such-page"]);
  });

  test("the profile shows an empty name and a bad image at once, with the scheme rule this app really has", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.linus, DEMO.password);
    await page.goto("/account");
    const before = await app.db.collection("users").findOne({ email: DEMO.linus });
    const rule = "Enter a web address that starts with https:// or http://";
    await page.getByLabel("Name").fill("");
    await page.getByLabel("Image URL").fill("ftp://files.example/me.png");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(errorUnder(page, "name"), "Enter a name");
    await expectText(errorUnder(page, "image"), rule);
    // The summary reads the same sentences, capital included.
    expect(await summary(page).locator("li").allTextContents()).toEqual([
      "Name: Enter a name",
      `Image URL: ${rule}`,
    ]);
    await page.screenshot({ path: `${SHOTS}/profile-name-and-image.png`, fullPage: true });
    // The core's own refusal (name given) reads the same rule.
    await page.getByLabel("Name").fill("Linus T.");
    await page.getByLabel("Image URL").fill("ftp://files.example/me.png");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(errorUnder(page, "image"), rule);
    await expect.poll(() => summary(page).locator("li").allTextContents()).toEqual([`Image URL: ${rule}`]);
    const after = await app.db.collection("users").findOne({ email: DEMO.linus });
    expect({ name: after?.name, image: after?.image }).toEqual({ name: before?.name, image: before?.image });
  });

  test("empty fields say what to enter: two-factor password and code, a new organization's name and slug", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.barbara, DEMO.password);
    await page.goto("/organizations");
    await page.getByRole("button", { name: "Create organization" }).click();
    await expectText(errorUnder(page, "name"), "Enter a name");
    await expectText(errorUnder(page, "slug"), "Enter a slug");

    await page.goto("/account/two-factor");
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    await expectText(errorUnder(page, "password"), "Enter your password");
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    const secret = await waitText(page.getByTestId("totp-secret"));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await expectText(errorUnder(page, "code"), "Enter the 6-digit code");
    await page.screenshot({ path: `${SHOTS}/2fa-empty-code.png`, fullPage: true });
    await page.getByLabel("Code from the app").fill(await totpNow(secret));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await expectPath(page, "/account/two-factor");
    await expect.poll(() => page.getByRole("button", { name: "Turn off two-factor" }).count()).toBe(1);
    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    await expectText(errorUnder(page, "password"), "Enter your password");
    const user = await app.db.collection("users").findOne({ email: DEMO.barbara });
    expect(user?.twoFactorEnabled).toBe(true);
  });

  test("/two-factor without a sign-in in progress says so with a sign-in link; a lost challenge links there too", async () => {
    const page = await app.newPage();
    await page.goto("/two-factor");
    await expectText(
      page.locator("main p").first(),
      "No sign-in is waiting for a second step: sign in with your password first.",
    );
    expect(await page.getByLabel("Code").count()).toBe(0);
    await page.getByRole("link", { name: "Sign in", exact: true }).last().click();
    await expectPath(page, "/sign-in");

    // Barbara turned two-factor on above: her password leads to the code form.
    await page.getByLabel("Email").fill(DEMO.barbara);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectPath(page, "/two-factor");
    const context = page.context();
    const challenge = (await context.cookies()).find((cookie) => cookie.name.endsWith(".two_factor"));
    expect(challenge).toBeDefined();
    await context.addCookies([{ ...(challenge as NonNullable<typeof challenge>), value: "gone" }]);
    await page.getByLabel("Code").fill("123456");
    await page.getByRole("button", { name: "Verify" }).click();
    await expectText(summary(page).locator("li"), "Your sign-in took too long. Sign in again.");
    const link = page.locator("main").getByRole("link", { name: "Sign in", exact: true });
    expect(await link.getAttribute("href")).toMatch(/^\/sign-in/);
    await page.screenshot({ path: `${SHOTS}/two-factor-gone.png`, fullPage: true });
  });

  test("inviting the same address twice shows the refusal without the first invitation's success", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace, DEMO.password);
    await page.goto("/organizations/acme/invitations");
    const invite = async () => {
      await page.getByLabel("Email").fill("twice@example.com");
      await page.getByRole("button", { name: "Send invitation" }).click();
    };
    const sent = page.getByRole("status").filter({ hasText: "Invitation sent." });
    await invite();
    await expect.poll(() => sent.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("done")).toBe("sent");
    await invite();
    await expect.poll(() => summary(page).count()).toBe(1);
    expect(await sent.count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/invite-twice.png`, fullPage: true });
    expect(await app.db.collection("invitations").countDocuments({ email: "twice@example.com" })).toBe(1);
  });

  for (const [lang, label, email] of [
    ["ru", "Русский", DEMO.grace],
    ["de", "Deutsch", DEMO.alan],
  ] as const) {
    test(`in ${lang} at 1,100 px the header keeps one row, and at 1,280 px the account tabs too`, async () => {
      const page = await app.newPage();
      await page.setViewportSize({ width: 1100, height: 800 });
      await signIn(page, email, DEMO.password);
      await page.goto("/organizations");
      // The widest header: an active organization's name beside the language switcher.
      const makeActive = page.getByRole("button", { name: "Make active Acme Corporation" });
      if ((await makeActive.count()) > 0) await makeActive.click();
      await expectText(page.locator(".active-org"), /Acme Corporation/);
      await page.locator("#language-select").selectOption({ label });
      await page.locator(".language-form button").click();
      await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(lang);
      for (const path of [
        "/",
        "/account",
        "/organizations",
        "/organizations/acme/members",
        "/account/api-keys",
      ]) {
        await page.goto(path);
        await expectHeaderOnOneRow(page);
      }
      await page.goto("/organizations/acme/members");
      await page.screenshot({ path: `${SHOTS}/${lang}-members-1100.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto("/account");
      const tops = await page
        .locator(".subnav a")
        .evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
      expect(new Set(tops).size, `${lang}: account tabs wrap`).toBe(1);
      await page.screenshot({ path: `${SHOTS}/${lang}-account-1280.png` });
      await screenshot(page, `stranger-${lang}-account-1280`);
    });
  }
});
