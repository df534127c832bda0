import { describe, expect, test } from "vitest";
import { DEMO, expectText, screenshot, useTestApp } from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

/**
 * The API-keys form names the field a refusal concerns in its summary, like every other form; the
 * slug's hint, its live check and the input's pattern say the core's rule (letters, digits, - _ and
 * ., contracts/organization-fields.ts), so a slug the core accepts is never called wrong.
 */

const app = useTestApp({}, { testTimeout: 120_000 });

describe("API keys and slugs say what the core's rules are", () => {
  test("a too-long key name is named with its label in the summary; no key is made, and the last Saved. is gone", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.linus, DEMO.password);
    await page.goto("/account/api-keys");
    // A key disabled first: `?done=updated` stays in the URL the refused form below posts to.
    await page.getByLabel("Name", { exact: true }).fill("Nightly");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByTestId("new-api-key").waitFor();
    await page.getByRole("button", { name: "Disable Nightly" }).click();
    await expectText(page.getByRole("status"), "Saved.");
    const keysBefore = await app.db.collection("apiKeys").countDocuments();
    await page.getByLabel("Name", { exact: true }).fill("K".repeat(40));
    await page.getByRole("button", { name: "Create key" }).click();
    await expectText(page.locator("#field-name-error"), "At most 32 characters");
    // One notice for what happened last: the refusal, not the "Saved." before it.
    expect(await page.getByRole("status").count()).toBe(0);
    await screenshot(page, "api-keys-refused-after-saved");
    // The label prefix is what this asserts; the rule's first letter is the summary's own style.
    expect(await page.locator(".error-summary li").allInnerTexts()).toEqual([
      expect.stringMatching(/^Name: at most 32 characters$/i),
    ]);
    expect(await app.db.collection("apiKeys").countDocuments()).toBe(keysBefore);
    // The notice is looked up among the page's own outcomes: "toString" is none, and no error page.
    await page.goto("/account/api-keys?done=toString");
    await expectText(page.locator("h2#keys-title"), "API keys");
    expect(await page.getByRole("status").count()).toBe(0);
  });

  test("the slug hint names - _ and .; a slug with them is available live, valid to the browser, and created", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace, DEMO.password);
    await page.goto("/organizations");
    await expectText(
      page.locator("#field-slug-hint"),
      "Lowercase letters, digits, - _ and ., beginning and ending with a letter or digit; used in addresses.",
    );
    await page.getByLabel("Organization name").fill("Dotted Team");
    await page.getByLabel("Slug", { exact: true }).fill("dotted.team_1");
    await expectText(page.locator("#field-slug-live"), "This slug is available.");
    expect(
      await page.locator("#field-slug").evaluate((input: HTMLInputElement) => input.validity.valid),
    ).toBe(true);
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL((url) => url.pathname === "/organizations/dotted.team_1", { timeout: 10_000 });
    expect(await app.db.collection("organizations").countDocuments({ slug: "dotted.team_1" })).toBe(1);

    // What the core refuses, the live check refuses too, in the rule's words.
    await page.goto("/organizations");
    await page.getByLabel("Slug", { exact: true }).fill("-dotted");
    await expectText(
      page.locator("#field-slug-live"),
      "Use only lowercase letters, digits, - _ and ., beginning and ending with a letter or digit",
    );
    expect(
      await page.locator("#field-slug").evaluate((input: HTMLInputElement) => input.validity.valid),
    ).toBe(false);
  });
});
