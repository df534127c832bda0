import type { Locator, Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO, expectAccessible, expectText, screenshot, useTestApp } from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

/** Issue 34 §4: where a mail went is shown on the invitations page and on the admin's user page. */
const app = useTestApp();

/** Reloads until the cell says `expected` (the mail leaves beside the answer, so it may still be on its way). */
async function expectAfterReload(page: Page, cell: () => Locator, expected: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const text = (await cell().textContent())?.trim() ?? "";
        if (text !== expected) await page.reload();
        return text;
      },
      { timeout: 20_000, interval: 300 },
    )
    .toBe(expected);
}

describe("mail states on the pages", () => {
  test("the invitations page shows each invitation's mail state, sent for a new one once it left", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    await page.goto("/organizations/acme/invitations");
    await expect.poll(() => page.getByRole("columnheader", { name: "Mail", exact: true }).count()).toBe(1);
    await page.getByLabel("Email", { exact: true }).fill("rosalind@example.com");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expectText(page.getByRole("status"), "Invitation sent.");
    const row = () =>
      page.locator("tbody tr", { hasText: "rosalind@example.com" }).getByTestId("invitation-mail");
    await expectAfterReload(page, row, "Sent");
    // The seed's invitation went through the same outbox when the demo was seeded.
    const seeded = page.locator("tbody tr", { hasText: DEMO.invitee }).getByTestId("invitation-mail");
    await expectText(seeded, "Sent");
    await expectAccessible(page);
    await screenshot(page, "mail-states-invitations");
  });

  test("the admin's user page lists the user's recent mails with their state", async () => {
    const reset = await fetch(`${app.url}/api/auth/request-password-reset`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ email: DEMO.linus }),
    });
    expect(reset.status).toBe(200);
    const linus = await app.db.collection("users").findOne({ email: DEMO.linus });
    const page = await app.newPage();
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto(`/admin/users/${linus?._id.toHexString()}`);
    await expectText(page.getByRole("heading", { name: "Recent mails" }), "Recent mails");
    const state = () =>
      page.getByTestId("user-mails").locator("tbody tr", { hasText: "reset-password" }).locator("td").nth(2);
    await expectAfterReload(page, state, "Sent");
    await expectAccessible(page);
    await screenshot(page, "mail-states-admin-user");
  });
});
