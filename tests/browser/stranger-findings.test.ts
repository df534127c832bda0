import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
  DEMO,
  expectPath,
  expectText,
  screenshot,
  startTestApp,
  type TestApp,
  totpNow,
  waitText,
} from "./app-harness.ts";
import { expectHeaderOnOneRow, signIn } from "./page-watch.ts";

/**
 * What a stranger found using the Remix demo: a button link white on white, empty fields answered
 * as wrong ones, a second-factor page with no sign-in behind it, 404s logged as crashes, and a
 * Russian header on two rows.
 */
vi.setConfig({ testTimeout: 120_000 });

const SHOTS = "/tmp/f2";
let app: TestApp;
beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await startTestApp();
}, 240_000);
afterAll(() => app?.close());

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

describe("what a stranger found", () => {
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



});
