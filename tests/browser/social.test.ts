import { describe, expect, test } from "vitest";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, useOAuthServer } from "#test/oauth-server.ts";
import { expectAccessible, expectPath, expectText, heading, screenshot, useTestApp } from "./app-harness.ts";

// GitHub, pointed at the scripted OAuth server of tests/support: the browser really goes there and back.
const oauth = useOAuthServer();
const app = useTestApp(() => ({
  GITHUB_CLIENT_ID: TEST_CLIENT_ID,
  GITHUB_CLIENT_SECRET: TEST_CLIENT_SECRET,
  GITHUB_ENDPOINTS: JSON.stringify(oauth.endpoints("github")),
}));

describe("a social provider", () => {
  test("signs a new user up from the sign-in page; the account sets a password, then unlinks the provider", async () => {
    oauth.setIdentity("github", {
      id: "4242",
      email: "sam@example.com",
      name: "Sam Social",
      emailVerified: true,
    });
    const page = await app.newPage();
    await page.goto("/sign-in");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await expectText(heading(page), "Welcome, Sam Social");
    await screenshot(page, "social-signed-in");

    await page.goto("/account/linked");
    await expectText(page.locator("tbody tr td").first(), "GitHub");
    await page.goto("/account/password");
    await expectText(page.locator("main h2"), "Set a password");
    await page.getByLabel("New password").fill("now with a password too");
    await page.getByRole("button", { name: "Set password" }).click();
    await expectText(page.getByRole("status"), "Your password has been set.");

    await page.goto("/account/linked");
    await expect.poll(() => page.locator("tbody tr").count()).toBe(2);
    await expectAccessible(page);
    await screenshot(page, "social-linked-accounts");
    await page.getByRole("button", { name: "Unlink GitHub" }).click();
    await expectText(page.getByRole("status"), "The account was unlinked.");
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    await expectText(page.locator("tbody tr td").first(), "Email and password");
  });

  test("links the provider to a password account from the linked-accounts page", async () => {
    oauth.setIdentity("github", {
      id: "777",
      email: "grace@example.com",
      name: "Grace H.",
      emailVerified: true,
    });
    const page = await app.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByLabel("Password").fill("tessera-demo-user");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(heading(page), /Welcome/);
    await page.goto("/account/linked");
    await page.getByRole("button", { name: "Link GitHub" }).click();
    await expectPath(page, "/account/linked");
    await expect.poll(() => page.locator("tbody tr").count()).toBe(2);
    const grace = await app.db.collection("users").findOne({ email: "grace@example.com" });
    expect(
      await app.db.collection("accounts").countDocuments({ userId: grace?._id, providerId: "github" }),
    ).toBe(1);
  });

  test("a user the provider signs up gets the language they browse in: cookie, then Accept-Language, else none", async () => {
    const cases: { id: string; email: string; locale: string; cookie?: string; expected: string | null }[] = [
      { id: "5101", email: "jurgen@example.com", locale: "de-DE", expected: "GERMAN" },
      { id: "5102", email: "olena@example.com", locale: "de-DE", cookie: "uk", expected: "UKR" },
      { id: "5103", email: "joao@example.com", locale: "pt-BR", expected: null },
    ];
    for (const { id, email, locale, cookie, expected } of cases) {
      oauth.setIdentity("github", { id, email, name: `Social ${id}`, emailVerified: true });
      const page = await app.newPage({ locale });
      if (cookie) await page.context().addCookies([{ name: "lang", value: cookie, url: app.url }]);
      await page.goto("/sign-in");
      await page.locator('form[action="/social"] button').first().click();
      await page.waitForURL((url) => url.pathname === "/");
      await expect
        .poll(() => page.locator("html").getAttribute("lang"))
        .toBe(cookie ?? (expected ? locale.slice(0, 2) : "en"));
      const user = await app.db.collection("users").findOne({ email });
      expect(user?.language ?? null, email).toBe(expected);
      await screenshot(page, `social-language-${locale}${cookie ? `-cookie-${cookie}` : ""}`);
    }
  });
});
