import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { linkIn } from "../e2e/smtp-sink.ts";
import { DEMO, expectText, useTestApp } from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

/**
 * A new password that is the account's address, its local part or the app's name (the core's 400
 * PASSWORD_CONTEXT_SPECIFIC, docs/decisions/) is said next to the password field of every form
 * that sets one, like the other password rules, and changes nothing.
 */

const MESSAGE = "Choose a password that is not your email address or the app's name";

const app = useTestApp({}, { testTimeout: 120_000 });

const summaryItems = (page: Page) => page.locator(".error-summary li").allInnerTexts();

async function credentialOf(email: string): Promise<string | undefined> {
  const user = await app.db.collection("users").findOne({ email });
  const account = await app.db
    .collection("accounts")
    .findOne({ userId: user?._id, providerId: "credential" });
  return account?.password;
}

describe("a password refused for its context is shown at the password field", () => {
  test("sign-up with the address's local part, without JavaScript: no account is made", async () => {
    const page = await app.newPage({ javaScript: false });
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Context Tester");
    await page.getByLabel("Email").fill("context.tester@example.com");
    await page.getByLabel("Password").fill("context.tester");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(page.locator("#field-password-error"), MESSAGE);
    expect(await summaryItems(page)).toEqual([`Password: ${MESSAGE}`]);
    expect(await app.db.collection("users").countDocuments({ email: "context.tester@example.com" })).toBe(0);
  });

  test("reset-password with the address: the link still works for a good password", async () => {
    const page = await app.newPage();
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(DEMO.linus);
    await page.getByRole("button", { name: "Send the link" }).click();
    const mail = await app.smtp.waitForMail(DEMO.linus, "Reset your");
    const before = await credentialOf(DEMO.linus);
    await page.goto(linkIn(mail, "/reset-password/").toString());
    await page.getByLabel("New password").fill(DEMO.linus.toUpperCase());
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(page.locator("#field-password-error"), MESSAGE);
    expect(await summaryItems(page)).toEqual([`New password: ${MESSAGE}`]);
    expect(await credentialOf(DEMO.linus)).toBe(before);
    await page.getByLabel("New password").fill("a linus password 5");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(page.getByRole("status"), "Your password has been changed. Sign in with the new one.");
  });

  test("change password to the app's name: the password stays", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace, DEMO.password);
    const before = await credentialOf(DEMO.grace);
    await page.goto("/account/password");
    await page.getByLabel("Current password").fill(DEMO.password);
    await page.getByLabel("New password").fill("Tessera Demo");
    await page.getByRole("button", { name: "Change password" }).click();
    await expectText(page.locator("#field-newPassword-error"), MESSAGE);
    expect(await summaryItems(page)).toEqual([`New password: ${MESSAGE}`]);
    expect(await page.locator("#field-currentPassword-error").count()).toBe(0);
    expect(await credentialOf(DEMO.grace)).toBe(before);
  });

  test("an admin setting a user's password to the user's address: the password stays", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const alan = await app.db.collection("users").findOne({ email: DEMO.alan });
    const before = await credentialOf(DEMO.alan);
    await page.goto(`/admin/users/${alan?._id.toHexString()}`);
    await page.getByLabel("New password").fill(DEMO.alan);
    await page.getByRole("button", { name: "Set password" }).click();
    await expectText(page.locator("#field-newPassword-error"), MESSAGE);
    expect(await credentialOf(DEMO.alan)).toBe(before);
  });
});
