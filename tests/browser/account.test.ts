import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { linkIn } from "../e2e/smtp-sink.ts";
import {
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  heading,
  screenshot,
  totpNow,
  useTestApp,
  waitText,
} from "./app-harness.ts";

const app = useTestApp();

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("the account pages", () => {
  test("profile, password and sessions", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.barbara, DEMO.password);
    await expectText(heading(page), "Welcome, Barbara Liskov");
    await page.getByRole("link", { name: "Account" }).first().click();
    await expectText(heading(page), "Your account");
    await expectAccessible(page);
    await page.getByLabel("Name").fill("Barbara H. Liskov");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(page.getByRole("status"), "Saved.");
    await expectText(page.locator(".viewer-name"), "Barbara H. Liskov");
    await screenshot(page, "account-profile");

    // Two more devices, to see them in the list and sign them out.
    const other = await app.newPage();
    await signIn(other, DEMO.barbara, DEMO.password);
    await expectText(heading(other), /Welcome/);
    const third = await app.newPage();
    await signIn(third, DEMO.barbara, DEMO.password);
    await expectText(heading(third), /Welcome/);
    await page.getByRole("link", { name: "Sessions" }).click();
    await expectText(page.locator("caption"), "3 active sessions");
    // Signed in through the app's action: the core recorded the browser's address, as over HTTP.
    await expectText(page.locator("tbody tr", { hasText: "This device" }).locator("td").nth(1), "127.0.0.1");
    await expectAccessible(page);
    await screenshot(page, "account-sessions");
    await page
      .getByRole("button", { name: /^Sign out Chrome/ })
      .first()
      .click();
    await expectText(page.locator("caption"), "2 active sessions");
    await page.getByRole("button", { name: "Sign out of all other sessions" }).click();
    await expectText(page.locator("caption"), "1 active session");
    for (const device of [other, third]) {
      await device.goto("/account");
      await expectPath(device, "/sign-in");
    }

    await page.getByRole("link", { name: "Password" }).click();
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password").fill("abstraction and specification");
    await page.getByRole("button", { name: "Change password" }).click();
    await expectText(page.locator("#field-currentPassword-error"), "That is not your current password.");
    await expectAccessible(page);
    await screenshot(page, "account-password-error");
    await page.getByLabel("Current password").fill(DEMO.password);
    await page.getByLabel("New password").fill("abstraction and specification");
    await page.getByRole("button", { name: "Change password" }).click();
    await expectText(page.getByRole("status"), "Your password has been changed.");
  });

  test("two-factor: set up with the QR page, then sign in with a TOTP code, an emailed code and a backup code", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.alan, DEMO.password);
    await expectText(heading(page), /Welcome/);
    await page.goto("/account/two-factor");
    await expectText(page.locator("main strong").first(), "Two-factor authentication is off.");
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    const secret = await waitText(page.getByTestId("totp-secret"));
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const backupCodes = await page.locator(".codes li").allInnerTexts();
    expect(backupCodes.length).toBe(10);
    expect(await page.getByRole("img", { name: "QR code for your authenticator app" }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, "account-two-factor-setup");
    await page.getByLabel("Code from the app").fill(await totpNow(secret));
    await page.getByRole("button", { name: "Turn on two-factor" }).click();
    await expectText(page.getByRole("status"), "Two-factor authentication is now on.");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expectPath(page, "/sign-in");

    // TOTP: the next step's code (the current one was spent on the confirmation).
    await signIn(page, DEMO.alan, DEMO.password);
    await expectPath(page, "/two-factor");
    await expectText(heading(page), "Two-factor verification");
    await expectAccessible(page);
    await screenshot(page, "two-factor-challenge");
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expectText(
      page.locator("#field-code-error"),
      "That code is not right. Check your authenticator app and try again.",
    );
    await page.getByLabel("Code").fill(await totpNow(secret, Date.now() + 30_000));
    await page.getByRole("button", { name: "Verify" }).click();
    await expectText(heading(page), "Welcome, Alan Turing");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expectPath(page, "/sign-in");

    // Emailed code.
    await signIn(page, DEMO.alan, DEMO.password);
    await expectPath(page, "/two-factor");
    await page.getByRole("link", { name: "Use an emailed code" }).click();
    await page.getByRole("button", { name: "Email me a code" }).click();
    await expectText(page.getByRole("status"), "We emailed you a code.");
    const mail = await app.smtp.waitForMail(DEMO.alan, "sign-in code");
    const code = (mail.text ?? "").match(/\b\d{6}\b/)?.[0];
    expect(code).toBeDefined();
    await page.getByLabel("Code").fill(code!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expectText(heading(page), "Welcome, Alan Turing");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expectPath(page, "/sign-in");

    // Backup code, trusting the device: the next sign-in asks for no second factor.
    await signIn(page, DEMO.alan, DEMO.password);
    await expectPath(page, "/two-factor");
    await page.getByRole("link", { name: "Use a backup code" }).click();
    await page.getByLabel("Backup code").fill(backupCodes[0]!);
    await page.getByLabel("Trust this device for 30 days").check();
    await page.getByRole("button", { name: "Verify" }).click();
    await expectText(heading(page), "Welcome, Alan Turing");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expectPath(page, "/sign-in");
    await signIn(page, DEMO.alan, DEMO.password);
    await expectText(heading(page), "Welcome, Alan Turing");
  }, 90_000);

  test("API keys: created and shown once, disabled, deleted", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.linus, DEMO.password);
    await expectText(heading(page), /Welcome/);
    await page.goto("/account/api-keys");
    await page.getByLabel("Name", { exact: true }).fill("CI deploys");
    await page.getByLabel("Expires in").selectOption("90");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await waitText(page.getByTestId("new-api-key"));
    expect(key.length).toBeGreaterThan(40);
    await expectText(page.locator("caption"), "1 key");
    await expectAccessible(page);
    await screenshot(page, "account-api-keys");
    await page.getByRole("button", { name: "Disable CI deploys" }).click();
    await expectText(page.locator("tbody td").nth(3), "Disabled");
    const stored = await app.db.collection("apiKeys").findOne({ name: "CI deploys" });
    expect(stored?.enabled).toBe(false);
    await page.getByRole("button", { name: "Delete CI deploys" }).click();
    await expectText(page.locator("caption"), "0 keys");
  });

  test("change email through the mailed links (current address, then the new one), then delete the account through another", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace, DEMO.password);
    await expectText(heading(page), /Welcome/);
    await page.goto("/account/email");
    await expectText(
      page.getByText(/changes only once the new address is confirmed/),
      /If your current address is verified, it confirms the change first\./,
    );
    await page.getByLabel("New email address").fill("grace.hopper@example.com");
    await page.getByRole("button", { name: "Change email" }).click();
    await expectText(
      page.getByRole("status"),
      "Check the inbox of grace@example.com: open the link we mailed to confirm the change. We then mail a link to the new address, and your address changes when that one is opened.",
    );
    // docs/decisions/0008-an-address-moves-only-once-it-is-proven.md "An address moves only once it is proven": the current mailbox agrees first…
    const mail = await app.smtp.waitForMail(DEMO.grace, "Confirm your new email");
    await page.goto(linkIn(mail, "/verify-email").toString());
    await expectText(
      page.getByRole("status"),
      "Your current address confirmed the change. Now open the link we mailed to the new address: your address changes then.",
    );
    expect(await app.db.collection("users").countDocuments({ email: "grace.hopper@example.com" })).toBe(0);
    // …then the new mailbox opens its own link, and only then the address moves, verified.
    const proof = await app.smtp.waitForMail("grace.hopper@example.com", "Verify your email");
    await page.goto(linkIn(proof, "/verify-email").toString());
    await expectText(heading(page), "Email verification");
    await expectText(
      page.getByRole("status"),
      "Your email address is now grace.hopper@example.com, and it is verified.",
    );
    await screenshot(page, "account-email-changed");
    const moved = await app.db.collection("users").findOne({ email: "grace.hopper@example.com" });
    expect(moved?.emailVerified).toBe(true);

    // Grace owns Acme with other members: the core refuses until ownership moves.
    await page.goto("/account/delete");
    await expectAccessible(page);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expectText(page.getByRole("alert").first(), /Transfer ownership|There is a problem/);
    await screenshot(page, "account-delete-refused");
  });

  test("an unverified account's address moves only when the new address opens its link", async () => {
    const page = await app.newPage();
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Unproven Mover");
    await page.getByLabel("Email").fill("unproven@example.com");
    await page.getByLabel("Password").fill("moving house soon 7");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(heading(page), /Welcome/);
    await page.goto("/account/email");
    await page.getByLabel("New email address").fill("proven.later@example.com");
    await page.getByRole("button", { name: "Change email" }).click();
    await expectText(
      page.getByRole("status"),
      "Check the new address's inbox: your address changes when you open the link we mailed there.",
    );
    const users = app.db.collection("users");
    expect(await users.countDocuments({ email: "unproven@example.com", emailVerified: false })).toBe(1);
    expect(await users.countDocuments({ email: "proven.later@example.com" })).toBe(0);
    const proof = await app.smtp.waitForMail("proven.later@example.com", "Verify your email");
    await page.goto(linkIn(proof, "/verify-email").toString());
    await expectText(
      page.getByRole("status"),
      "Your email address is now proven.later@example.com, and it is verified.",
    );
    expect(await users.countDocuments({ email: "proven.later@example.com", emailVerified: true })).toBe(1);
    expect(await users.countDocuments({ email: "unproven@example.com" })).toBe(0);
  });

  test("a user without organizations deletes the account through the mailed link", async () => {
    const page = await app.newPage();
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Temporary Tester");
    await page.getByLabel("Email").fill("temp@example.com");
    await page.getByLabel("Password").fill("ephemeral account 42");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectText(heading(page), /Welcome/);
    await page.goto("/account/delete");
    await page.getByLabel("Password").fill("ephemeral account 42");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expectText(page.getByRole("status"), "We mailed you a link: open it to confirm the deletion.");
    const mail = await app.smtp.waitForMail("temp@example.com", "Confirm deleting");
    await page.goto(linkIn(mail, "/delete-user").toString());
    await expectPath(page, "/goodbye");
    await expectText(page.getByRole("status"), "Your account has been deleted. Goodbye!");
    expect(await app.db.collection("users").countDocuments({ email: "temp@example.com" })).toBe(0);
  });
});
