import { describe, expect, test } from "vitest";
import { linkIn } from "../e2e/smtp-sink.ts";
import {
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  heading,
  screenshot,
  useTestApp,
} from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

const app = useTestApp();

describe("organizations", () => {
  test("create with a live slug check, switch the active one (the header shows it), edit the settings", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.linus);
    await page.getByRole("link", { name: "Organizations" }).first().click();
    await expectText(heading(page), "Organizations");
    await page.getByLabel("Organization name").fill("Kernel Hackers");
    await page.getByLabel("Slug", { exact: true }).fill("acme");
    await expectText(page.locator("#field-slug-live"), "This slug is already taken: choose another.");
    await page.getByLabel("Slug", { exact: true }).fill("kernel");
    await expectText(page.locator("#field-slug-live"), "This slug is available.");
    await expectAccessible(page);
    await screenshot(page, "organizations-create");
    await page.getByRole("button", { name: "Create organization" }).click();
    await expectPath(page, "/organizations/kernel");
    await expectText(page.getByTestId("active-organization"), "Organization: Kernel Hackers");

    // Linus is also a member of Acme (seed): switch to it.
    await page.getByRole("link", { name: "Organizations" }).first().click();
    await page.getByRole("button", { name: "Make active Acme Corporation" }).click();
    await expectText(page.getByTestId("active-organization"), "Organization: Acme Corporation");
    await screenshot(page, "organizations-list");

    // An organization's own page offers to make it active, and stays on that page.
    await page.goto("/organizations/kernel");
    await page.getByRole("button", { name: "Make active Kernel Hackers" }).click();
    await expectPath(page, "/organizations/kernel");
    await expectText(page.getByTestId("active-organization"), "Organization: Kernel Hackers");
    await expectText(page.getByTestId("organization-is-active"), "Active");
    await page.getByLabel("Organization name").fill("Kernel Hackers Guild");
    await page.getByLabel("Metadata (JSON)").fill("not json");
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(page.locator(".error-summary li"), "Metadata (JSON): Metadata must be a JSON object");
    await page.getByLabel("Metadata (JSON)").fill('{"plan": "pro"}');
    await page.getByRole("button", { name: "Save" }).click();
    await expectText(page.getByRole("status"), "Saved.");
    await expectText(heading(page), "Kernel Hackers Guild");
    const stored = await app.db.collection("organizations").findOne({ slug: "kernel" });
    // Stored serialised, as the core keeps it.
    expect(JSON.parse(String(stored?.metadata))).toEqual({ plan: "pro" });
    await expectAccessible(page);
    await screenshot(page, "organizations-settings");

    await page.getByLabel("Type the slug kernel to confirm").fill("kernel");
    await page.getByRole("button", { name: "Delete organization" }).click();
    await expectPath(page, "/organizations");
    expect(await app.db.collection("organizations").countDocuments({ slug: "kernel" })).toBe(0);
  });

  test("members, teams and invitations of the seeded organization", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    await page.goto("/organizations/acme/members");
    await expectText(page.locator("caption"), "3 members");
    await expectAccessible(page);
    await screenshot(page, "organizations-members");
    await page.getByLabel("Role of Linus Torvalds").selectOption("admin");
    await page.getByRole("button", { name: "Change role Linus Torvalds" }).click();
    await expectText(page.getByRole("status"), "Saved.");
    const linus = await app.db.collection("users").findOne({ email: DEMO.linus });
    expect((await app.db.collection("members").findOne({ userId: linus?._id }))?.role).toBe("admin");

    await page.getByRole("link", { name: "Teams" }).click();
    await expectText(page.locator("legend").first(), "Platform");
    await page.getByLabel("Team name").fill("Research");
    await page.getByRole("button", { name: "Create team" }).click();
    await expectText(page.locator("legend").nth(1), "Research");
    await page.getByLabel("Member to add to Research").selectOption({ label: "Linus Torvalds" });
    await page
      .locator("fieldset", { hasText: "Research" })
      .getByRole("button", { name: "Add to team" })
      .click();
    await expectText(
      page.locator("fieldset", { hasText: "Research" }).getByRole("rowheader"),
      "Linus Torvalds",
    );
    await expectAccessible(page);
    await screenshot(page, "organizations-teams");

    await page.getByRole("link", { name: "Invitations" }).click();
    await expectText(page.locator("caption"), "1 pending invitation");
    await page.getByLabel("Email", { exact: true }).fill(DEMO.invitee);
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expectText(page.locator("#field-email-error"), "User is already invited to this organization");
    await page.getByRole("button", { name: `Resend ${DEMO.invitee}` }).click();
    await expectText(page.getByRole("status"), "Invitation sent again.");
    await page.getByLabel("Email", { exact: true }).fill("ken@example.com");
    await page.getByLabel("Team").selectOption({ label: "Research" });
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expectText(page.locator("caption"), "2 pending invitations");
    await expectAccessible(page);
    await screenshot(page, "organizations-invitations");
    await page.getByRole("button", { name: "Cancel ken@example.com" }).click();
    await expectText(page.locator("caption"), "1 pending invitation");
  });

  test("an invitee without an account signs up from the mailed link with JavaScript off, verifies, and accepts", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.barbara);
    await owner.goto("/organizations/globex/invitations");
    await owner.getByLabel("Email", { exact: true }).fill("dennis@example.com");
    await owner.getByRole("button", { name: "Send invitation" }).click();
    await expectText(owner.getByRole("status"), "Invitation sent.");
    const invitationMail = await app.smtp.waitForMail("dennis@example.com", "invited");
    const invitationLink = linkIn(invitationMail, "/accept-invitation/");

    const page = await app.newPage({ javaScript: false });
    await page.goto(invitationLink.toString());
    await expectText(heading(page), "Invitation");
    await screenshot(page, "invitation-signed-out");
    await page.getByRole("link", { name: "Sign up" }).last().click();
    await page.getByLabel("Name").fill("Dennis Ritchie");
    await page.getByLabel("Email").fill("dennis@example.com");
    await page.getByLabel("Password").fill("the c programming language");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectPath(page, invitationLink.pathname);
    // Invitations need a verified address (organization.requireEmailVerificationOnInvitation).
    await expectText(
      page.getByRole("alert"),
      "Email verification required before accepting or rejecting invitation",
    );
    const verification = await app.smtp.waitForMail("dennis@example.com", "Verify your email");
    await page.goto(linkIn(verification, "/verify-email").toString());
    await page.getByRole("link", { name: "Continue" }).click();
    await expectPath(page, invitationLink.pathname);
    await expectText(
      page.locator("main p").first(),
      "barbara@example.com invites you to join Globex as Member.",
    );
    await screenshot(page, "invitation-ready");
    await page.getByRole("button", { name: "Accept" }).click();
    await expectPath(page, "/organizations/globex/members");
    await expectText(page.locator("caption"), "3 members");
    await expectText(page.getByTestId("active-organization"), "Organization: Globex");
  });
});
