import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { APP_DIR, DEMO, expectAccessible, expectText, screenshot, useTestApp } from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * Organization → Activity and Admin → Events in Chromium (issue 33 §3): Acme's owner puts Linus in
 * the Platform team; the activity page lists that change with the seed's (Alan joining Platform),
 * and filtered by member shows Linus's alone — without JavaScript too, the filters being a GET form.
 * A plain member is not offered the tab and reads the core's refusal. The admin's events page
 * filters every organization's events by type.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const PHONE = { width: 390, height: 844 };

const app = useTestApp();

async function idOf(email: string): Promise<string> {
  return String((await app.db.collection("users").findOne({ email }))!._id);
}

describe("activity and events pages", () => {
  test("the owner reads the organization's audit trail, filtered by member, and its events", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    const team = await app.db.collection("teams").findOne({ name: "Platform" });
    const added = await owner.request.post("/api/auth/organization/add-team-member", {
      headers: { origin: app.url },
      data: { teamId: String(team!._id), userId: await idOf(DEMO.linus) },
    });
    expect(added.status()).toBe(200);

    await owner.goto("/organizations/acme");
    await owner.getByRole("link", { name: en.organizations.tabs.activity }).click();
    await expectHydrated(owner);
    await expectText(owner.getByRole("heading", { level: 2 }), en.activity.title);
    // The type filter offers the organization's own event types: a user's never carry it.
    const typeChoices = await owner
      .getByLabel(en.activity.type)
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(typeChoices).toEqual(expect.arrayContaining(["", "member.added", "team_member.added"]));
    expect(typeChoices.filter((type) => type.startsWith("user.") || type.startsWith("session."))).toEqual([]);
    const audit = owner.getByTestId("audit-table");
    await expectText(audit.locator("caption"), en.activity.auditCaption.replace("{{total}}", "2"));
    const subjects = () => audit.locator("tbody tr td:nth-child(4)").allTextContents();
    expect(await subjects()).toEqual([
      "Linus Torvalds <linus@example.com>",
      "Alan Turing <alan@example.com>",
    ]);
    expect(await audit.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual([
      "Grace Hopper <grace@example.com>",
      "Grace Hopper <grace@example.com>",
    ]);
    // The events of the organization: the seed's and this change, newest first.
    await expectText(
      owner.getByTestId("event-table").locator("tbody tr td:nth-child(2)").first(),
      "team_member.added",
    );
    await expectAccessible(owner);
    await screenshot(owner, "activity-owner");

    await owner.getByLabel(en.activity.member).selectOption({ label: "Linus Torvalds <linus@example.com>" });
    await owner.getByRole("button", { name: en.admin.users.apply }).click();
    await expectText(audit.locator("caption"), en.activity.auditCaption.replace("{{total}}", "1"));
    expect(await subjects()).toEqual(["Linus Torvalds <linus@example.com>"]);
    expect(new URL(owner.url()).searchParams.get("member")).toBe(await idOf(DEMO.linus));
    // The events too are Linus's only: joining Acme, then the Platform team.
    const eventTypes = await owner
      .getByTestId("event-table")
      .locator("tbody tr td:nth-child(2)")
      .allTextContents();
    expect(eventTypes).toEqual(["team_member.added", "member.added"]);
    await owner.setViewportSize(PHONE);
    await screenshot(owner, "activity-owner-phone");

    // Without JavaScript: the same GET form; a day after today matches nothing.
    const plain = await app.newPage({ javaScript: false });
    await signIn(plain, DEMO.grace);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await plain.goto(`/organizations/acme/activity?member=${await idOf(DEMO.linus)}&from=${tomorrow}`);
    await expectText(
      plain.getByTestId("audit-table").locator("caption"),
      en.activity.auditCaption.replace("{{total}}", "0"),
    );
    await expectText(plain.getByText(en.admin.audit.empty), en.admin.audit.empty);
    // A malformed day typed in the address: a 400 saying what to type, no listing.
    const bad = await plain.goto("/organizations/acme/activity?from=yesterday");
    expect(bad?.status()).toBe(400);
    await expectText(plain.locator("#activity-from-error"), en.validation.DATE_INVALID);
  });

  test("a plain member is not offered Activity and reads the refusal", async () => {
    const member = await app.newPage();
    await signIn(member, DEMO.linus);
    await member.goto("/organizations/acme");
    expect(await member.getByRole("link", { name: en.organizations.tabs.activity }).count()).toBe(0);
    const answer = await member.goto("/organizations/acme/activity");
    expect(answer?.status()).toBe(403);
    await expectText(member.getByTestId("webhooks-refused"), en.errors.RESOURCE_ACCESS_NOT_ALLOWED);
    expect(await member.getByTestId("audit-table").count()).toBe(0);
  });

  test("the admin's events page lists every organization's events and filters them by type", async () => {
    const admin = await app.newPage();
    await signIn(admin, DEMO.admin.email, DEMO.admin.password);
    await admin.goto("/admin");
    await admin.getByRole("link", { name: en.admin.tabs.events }).click();
    await expectHydrated(admin);
    const types = () =>
      admin.getByTestId("event-table").locator("tbody tr td:nth-child(2)").allTextContents();
    await expect.poll(async () => (await types()).length).toBeGreaterThan(3);
    await admin.getByLabel(en.activity.type).selectOption("organization.created");
    await admin.getByRole("button", { name: en.admin.users.apply }).click();
    await expect.poll(types).toEqual(["organization.created", "organization.created"]);
    // Organizations by name and slug, the data by its field names (the payload on demand).
    const table = admin.getByTestId("event-table");
    expect(await table.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual([
      "Globex (globex)",
      "Acme Corporation (acme)",
    ]);
    await expectText(table.locator("tbody tr td:nth-child(5) summary").first(), "organizationId, name, slug");
    // The organization filter takes a slug, as the CLI's --org does.
    await admin.getByLabel(en.activity.organizationId).fill("acme");
    await admin.getByRole("button", { name: en.admin.users.apply }).click();
    await expect.poll(types).toEqual(["organization.created"]);
    await admin.getByLabel(en.activity.organizationId).fill("");
    // And by user, named by email: Linus's events only.
    await admin.getByLabel(en.activity.type).selectOption("");
    await admin.getByLabel(en.activity.userFilter).fill(DEMO.linus);
    await admin.getByRole("button", { name: en.admin.users.apply }).click();
    const linus = await idOf(DEMO.linus);
    await expect
      .poll(async () => (await app.db.collection("events").countDocuments({ userId: linus })) > 0)
      .toBe(true);
    const users = () =>
      admin.getByTestId("event-table").locator("tbody tr td:nth-child(4)").allTextContents();
    // Named by email, linking to the admin's page of the user.
    await expect.poll(async () => [...new Set(await users())]).toEqual([DEMO.linus]);
    expect(
      await admin
        .getByTestId("event-table")
        .locator("tbody tr td:nth-child(4) a")
        .first()
        .getAttribute("href"),
    ).toBe(`/admin/users/${linus}`);
    await expectAccessible(admin);
    await screenshot(admin, "admin-events");
    await admin.setViewportSize(PHONE);
    await screenshot(admin, "admin-events-phone");
  });
});
