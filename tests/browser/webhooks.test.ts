import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from "#test/webhook-receiver.ts";
import { APP_DIR, DEMO, expectAccessible, expectText, screenshot, useTestApp } from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * Webhook pages in the demo, end to end in Chromium (issue 33 §3): Acme's owner adds an endpoint
 * pointing at a receiver on 127.0.0.1 (the app allows private addresses only with
 * DEMO_ALLOW_PRIVATE_ADDRESSES=1), reads its secret once, sends a test event and sees the delivery
 * answered 200; the receiver checks its Standard Webhooks signature with that secret. The admin's
 * app-wide endpoint: rotation (the old secret's overlap said), turning off, deletion confirmed. A
 * member who may not manage them is not offered the tab and reads the core's refusal in German.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const de = JSON.parse(readFileSync(join(APP_DIR, "app/locales/de.json"), "utf8"));
const PHONE = { width: 390, height: 844 };

const app = useTestApp({ DEMO_ALLOW_PRIVATE_ADDRESSES: "1" });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.answer({ kind: "status", status: 200 });
});
afterAll(async () => {
  await receiver?.close();
});

/** Standard Webhooks v1: base64 HMAC-SHA256, keyed by the secret's bytes, of `id.timestamp.body`. */
function signedBy(secret: string, delivery: ReceivedDelivery): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`)
    .digest("base64");
  return delivery.signature.split(" ").includes(`v1,${expected}`);
}

function endpointCard(page: Page, url: string) {
  return page.getByRole("article", { name: new RegExp(`^${url.replace(/[.?/]/g, "\\$&")}`) });
}

async function addEndpoint(page: Page, url: string, description: string): Promise<string> {
  await page.getByLabel(en.webhooks.fields.url, { exact: true }).fill(url);
  await page.getByLabel(en.webhooks.fields.description).fill(description);
  await page.getByRole("button", { name: en.webhooks.add }).click();
  await expectText(page.getByTestId("webhook-secret").locator("p").first(), en.webhooks.createdSecret);
  return page.locator("#webhook-secret-value").inputValue();
}

/** The event types the add form offers, in its order. */
function offeredTypes(page: Page): Promise<string[]> {
  return page
    .locator('input[name="eventTypes"]')
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
}

describe("webhook pages", () => {
  test("the owner adds an endpoint on 127.0.0.1, reads its secret once, sends a test event and sees it delivered with 200", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    await owner.goto("/organizations/acme");
    await owner.getByRole("link", { name: en.organizations.tabs.webhooks }).click();
    await expectHydrated(owner);
    await expectText(owner.getByRole("heading", { level: 2 }), en.webhooks.organizationTitle);
    await expectText(owner.getByText(en.webhooks.organizationIntro), en.webhooks.organizationIntro);
    await expectText(owner.getByText(en.webhooks.none), en.webhooks.none);
    // Only the organization's own event types are offered: users' and sessions' never reach it.
    expect(await offeredTypes(owner)).toEqual([
      "organization.created",
      "organization.updated",
      "organization.deleted",
      "member.added",
      "member.updated",
      "member.removed",
      "invitation.created",
      "invitation.accepted",
      "invitation.rejected",
      "invitation.canceled",
      "team.created",
      "team.updated",
      "team.deleted",
      "team_member.added",
      "team_member.removed",
    ]);

    // An empty URL is refused under the field; nothing is stored.
    await owner.getByRole("button", { name: en.webhooks.add }).click();
    await expectText(owner.locator("#field-url-error"), en.validation.REQUIRED);
    expect(await app.db.collection("webhookEndpoints").countDocuments()).toBe(0);

    const secret = await addEndpoint(owner, receiver.url, "CRM sync");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    const card = endpointCard(owner, receiver.url);
    await expectText(card.getByTestId("last-delivery"), en.webhooks.noDeliveries);
    await expectAccessible(owner);
    await screenshot(owner, "webhooks-org-secret");
    // The secret is stored only as the core keeps it: a reload shows it no more.
    await owner.reload();
    await expect.poll(() => owner.getByTestId("webhook-secret").count()).toBe(0);
    expect(await owner.content()).not.toContain(secret);

    await endpointCard(owner, receiver.url).getByRole("button", { name: en.webhooks.test }).click();
    await expectText(owner.getByRole("status"), en.webhooks.testedNotice);
    const [delivery] = await receiver.waitForDelivered(1, 15_000);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: "webhook.test" });
    expect(signedBy(secret, delivery!)).toBe(true);
    // The page lists the delivery once the worker has recorded its attempt.
    await expect
      .poll(
        async () => {
          await owner.reload();
          return owner.getByTestId("response-code").first().textContent();
        },
        { timeout: 15_000 },
      )
      .toBe("200");
    const row = owner.locator("tr[data-delivery]").first();
    await expectText(row.locator(".badge"), en.webhooks.status.delivered);
    await expectText(row.locator("td").nth(1), "webhook.test");
    await expectAccessible(owner);
    await screenshot(owner, "webhooks-org-deliveries");
    await owner.setViewportSize(PHONE);
    await screenshot(owner, "webhooks-org-deliveries-phone");

    // Replay of that delivery: sent again with the same webhook-id.
    await owner.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole("button", { name: new RegExp(en.webhooks.replay) }).click();
    await expectText(owner.getByRole("status"), en.webhooks.replayedNotice);
    const [, again] = await receiver.waitForDelivered(2, 15_000);
    expect(again!.id).toBe(delivery!.id);
  });

  test("the admin's app-wide endpoint, without JavaScript: rotation shows the new secret once and the old one's overlap, off, then deleted after confirming", async () => {
    // Without JavaScript: every step is a form post and a page the server renders.
    const admin = await app.newPage({ javaScript: false });
    await signIn(admin, DEMO.admin.email, DEMO.admin.password);
    await admin.goto("/admin");
    await admin.getByRole("link", { name: en.admin.tabs.webhooks }).click();
    // The app's endpoints may take every type, the users' and sessions' among them.
    const everyType = await offeredTypes(admin);
    expect(everyType).toEqual(expect.arrayContaining(["user.created", "session.created", "member.added"]));
    expect(everyType.length).toBeGreaterThan(15);
    const url = `${receiver.url}?app-wide`;
    const first = await addEndpoint(admin, url, "Search index");
    expect(await app.db.collection("webhookEndpoints").countDocuments({ url, organizationId: null })).toBe(1);

    await endpointCard(admin, url).getByRole("button", { name: en.webhooks.rotate }).click();
    const notice = admin.getByTestId("webhook-secret");
    await expectText(notice.locator("p").first(), en.webhooks.rotatedSecret);
    await expectText(notice.locator("p").nth(1), /^The previous secret keeps signing deliveries until .+/);
    const rotated = await admin.locator("#webhook-secret-value").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    await screenshot(admin, "webhooks-admin-rotated");
    await admin.setViewportSize(PHONE);
    await screenshot(admin, "webhooks-admin-rotated-phone");
    await admin.setViewportSize({ width: 1280, height: 800 });

    await endpointCard(admin, url).getByRole("button", { name: en.webhooks.disable }).click();
    await expectText(admin.getByRole("status"), en.webhooks.disabledNotice);
    await expectText(endpointCard(admin, url).locator("h3 .badge"), en.webhooks.off);
    expect((await app.db.collection("webhookEndpoints").findOne({ url }))?.enabled).toBe(false);

    await endpointCard(admin, url).getByRole("link", { name: en.webhooks.delete }).click();
    await expectText(
      admin.locator(".danger-zone .warning"),
      en.webhooks.deleteWarning.replace("{{url}}", url),
    );
    expect(await app.db.collection("webhookEndpoints").countDocuments({ url })).toBe(1);
    await admin.getByRole("button", { name: en.webhooks.deleteConfirm }).click();
    await expectText(admin.getByRole("status"), en.webhooks.deletedNotice);
    expect(await app.db.collection("webhookEndpoints").countDocuments({ url })).toBe(0);
  });

  test("a member who may not manage webhooks is not offered the tab and reads the refusal in German, also without JavaScript", async () => {
    const member = await app.newPage({ javaScript: false, locale: "de-DE" });
    await member.goto("/sign-in");
    await member.getByLabel(de.fields.email).fill(DEMO.linus);
    await member.getByLabel(de.fields.password, { exact: true }).fill(DEMO.password);
    await member.getByRole("button", { name: de.signIn.submit, exact: true }).click();
    await member.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
    await member.goto("/organizations/acme");
    expect(await member.getByRole("link", { name: de.organizations.tabs.webhooks }).count()).toBe(0);
    const answer = await member.goto("/organizations/acme/webhooks");
    expect(answer?.status()).toBe(403);
    await expectText(member.getByTestId("webhooks-refused"), de.errors.WEBHOOK_MANAGE_NOT_ALLOWED);
    expect(await member.getByRole("button", { name: de.webhooks.add }).count()).toBe(0);
    await screenshot(member, "webhooks-member-refused");
  });
});
