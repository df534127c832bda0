import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { linkIn } from "../e2e/smtp-sink.ts";
import { DEMO, expectAccessible, expectText, heading, useTestApp } from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

/**
 * The newcomer's messages: every refused form says what to do, next to the field it
 * concerns (with the rule when the core names one), once; a failed submit moves focus to the summary.
 */

const app = useTestApp({}, { testTimeout: 120_000 });

const summaryItems = (page: Page) => page.locator(".error-summary li").allInnerTexts();

async function expectSummaryFocused(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        () => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName,
      ),
    )
    .toBe("error-summary");
}

describe("sign-in", () => {
  test("an empty form names each missing field, and focus moves to the summary", async () => {
    const page = await app.newPage();
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(page.locator("#field-email-error"), "Enter your email address");
    await expectText(page.locator("#field-password-error"), "Enter your password");
    expect(await summaryItems(page)).toEqual([
      "Email: Enter your email address",
      "Password: Enter your password",
    ]);
    await expectSummaryFocused(page);
    await expectAccessible(page);

    const noScript = await app.newPage({ javaScript: false });
    await noScript.goto("/sign-in");
    await noScript.getByRole("button", { name: "Sign in" }).click();
    await expectText(noScript.locator("#field-email-error"), "Enter your email address");
    await expectText(noScript.locator("#field-password-error"), "Enter your password");
  });

  test("a wrong email or password is said in the summary, under no field, and the summary has focus", async () => {
    const page = await app.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(DEMO.grace);
    await page.getByLabel("Password").fill("not her password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => summaryItems(page)).toEqual(["Invalid email or password"]);
    expect(await page.locator(".field-error").count()).toBe(0);
    await expectSummaryFocused(page);
    await page.screenshot({ path: "/tmp/h4/messages-sign-in-wrong.png" });
  });
});

describe("a field the core refuses is named, with its rule", () => {
  test("sign-up: a 300-character name; nothing is written", async () => {
    const page = await app.newPage();
    const before = await app.db.collection("users").countDocuments();
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("N".repeat(300));
    await page.getByLabel("Email").fill("long-name@example.com");
    await page.getByLabel("Password").fill("a long enough password 2");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(page.locator("#field-name-error"), "At most 256 characters");
    expect(await summaryItems(page)).toEqual(["Name: At most 256 characters"]);
    await expectSummaryFocused(page);
    expect(await app.db.collection("users").countDocuments()).toBe(before);
  });

  test("in Russian, the rule's count takes its plural form and empty fields say what to enter", async () => {
    const page = await app.newPage({ locale: "ru-RU" });
    await page.goto("/sign-up");
    await page.locator("#field-name").fill("Н".repeat(300));
    await page.locator("main form button[type=submit]").click();
    // Email and password are empty: the app asks for them before the core sees the name.
    await expectText(page.locator("#field-email-error"), "Введите адрес электронной почты");
    await page.locator("#field-email").fill("dlinnoe-imya@example.com");
    await page.locator("#field-password").fill("достаточно длинный пароль 6");
    await page.locator("main form button[type=submit]").click();
    await expectText(page.locator("#field-name-error"), "Не более 256 символов");
    expect(await summaryItems(page)).toEqual(["Имя: Не более 256 символов"]);
  });

  test("profile: a too-long name and a javascript: image are each named; the user is unchanged", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.linus, DEMO.password);
    const before = await app.db.collection("users").findOne({ email: DEMO.linus });
    await page.goto("/account");
    await page.getByLabel("Name").fill("L".repeat(257));
    await page.getByLabel("Image URL").fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(page.locator("#field-name-error"), "At most 256 characters");
    const items = await summaryItems(page);
    expect(items).toContain("Name: At most 256 characters");
    await page.getByLabel("Name").fill("Linus Torvalds");
    await page.getByLabel("Image URL").fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(
      page.locator("#field-image-error"),
      "Enter a web address that starts with https:// or http://",
    );
    expect(await summaryItems(page)).toEqual([
      "Image URL: Enter a web address that starts with https:// or http://",
    ]);
    await page.screenshot({ path: "/tmp/h4/messages-profile-image.png" });
    const after = await app.db.collection("users").findOne({ email: DEMO.linus });
    expect(after?.name).toBe(before?.name);
    expect(after?.image ?? null).toBe(before?.image ?? null);
  });

  test("organizations: a bad slug and a long name are named; a taken slug is said once", async () => {
    const page = await app.newPage({ javaScript: false });
    await signIn(page, DEMO.grace, DEMO.password);
    const before = await app.db.collection("organizations").countDocuments();
    await page.goto("/organizations");
    await page.getByLabel("Organization name").fill("O".repeat(300));
    await page.getByLabel("Slug", { exact: true }).fill("-bad slug-");
    await page.getByRole("button", { name: "Create organization" }).click();
    expect(await summaryItems(page)).toEqual([
      "Organization name: At most 256 characters",
      "Slug: Use only lowercase letters, digits, - _ and ., beginning and ending with a letter or digit",
    ]);
    await expectText(page.locator("#field-name-error"), "At most 256 characters");
    expect(await app.db.collection("organizations").countDocuments()).toBe(before);

    const live = await app.newPage();
    await signIn(live, DEMO.grace, DEMO.password);
    await live.goto("/organizations");
    await live.getByLabel("Organization name").fill("Another Acme");
    await live.getByLabel("Slug", { exact: true }).fill("acme");
    await expectText(live.locator("#field-slug-live"), "This slug is already taken: choose another.");
    await live.getByRole("button", { name: "Create organization" }).click();
    await expectText(live.locator("#field-slug-error"), "This slug is already taken: choose another.");
    // The live check (250 ms after the form re-renders) says nothing more while the server's message
    // stands for the same slug.
    await live.waitForTimeout(1500);
    expect(await live.locator("#field-slug-live").textContent()).toBe("");
    await live.screenshot({ path: "/tmp/h4/messages-slug-taken.png" });
    expect(await app.db.collection("organizations").countDocuments()).toBe(before);
  });
});

describe("other pages", () => {
  test("a used reset link says it was used or expired and offers a new one, from the mail and on submit", async () => {
    const page = await app.newPage({ javaScript: false });
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(DEMO.barbara);
    await page.getByRole("button", { name: "Send the link" }).click();
    const mail = await app.smtp.waitForMail(DEMO.barbara, "Reset your");
    const link = linkIn(mail, "/reset-password/").toString();
    await page.goto(link);
    const stale = await app.newPage({ javaScript: false });
    await stale.goto(link);
    await page.getByLabel("New password").fill("a brand new password 3");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(page.getByRole("status"), "Your password has been changed. Sign in with the new one.");

    const message = "This reset link has already been used or has expired. Ask for a new one.";
    await stale.getByLabel("New password").fill("yet another password 4");
    await stale.getByRole("button", { name: "Set the new password" }).click();
    await expectText(stale.getByRole("alert"), message);
    await page.goto(link);
    await expectText(page.getByRole("alert"), message);
    await page.screenshot({ path: "/tmp/h4/messages-reset-used.png" });
    await page.getByRole("link", { name: "Ask for a new link" }).click();
    await expectText(heading(page), "Forgot your password?");
  });

  test("a ban without an end reads as permanent", async () => {
    const page = await app.newPage({ javaScript: false });
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const alan = await app.db.collection("users").findOne({ email: DEMO.alan });
    await page.goto(`/admin/users/${alan?._id.toHexString()}`);
    await page.getByLabel("Reason for the ban").fill("spam");
    await page.getByRole("button", { name: "Ban user" }).click();
    await expectText(page.getByTestId("user-status"), "Banned permanently (spam)");
    await page.getByRole("button", { name: "Unban user" }).click();
    await expectText(page.getByTestId("user-status"), "Active");
  });
});
