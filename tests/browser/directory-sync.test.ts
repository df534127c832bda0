import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { APP_DIR, DEMO, expectAccessible, expectText, screenshot, useTestApp } from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * Organization → Security → Directory sync (issue 32 §1): Grace, Acme's owner, makes a SCIM token,
 * sees it once with the base URL to paste into her identity provider, which then reaches
 * /scim/v2/Users with it; she revokes it (confirmed) and the directory is refused at once. Linus,
 * a plain member, reads why there is nothing for him, and a form he posts by hand is refused in words.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const app = useTestApp();

function scimUsers(baseUrl: string, token: string) {
  return fetch(`${baseUrl}/Users`, { headers: { authorization: `Bearer ${token}` } });
}

describe("directory sync page", () => {
  test("the owner makes a token shown once with the base URL, the directory uses it, revoking stops it", async () => {
    const dir = en.organizations.directory;
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    await owner.goto("/organizations/acme/security");
    await owner.getByRole("link", { name: en.organizations.securityNav.directory }).click();
    await expectHydrated(owner);
    await expectText(owner.getByRole("heading", { level: 2 }), dir.title);
    await expectText(owner.locator("main p").filter({ hasText: dir.none }), dir.none);

    await owner.getByLabel(dir.name, { exact: true }).fill("entra");
    await owner.getByRole("button", { name: dir.create, exact: true }).click();
    const shown = owner.getByTestId("scim-token");
    await expectText(shown.locator("p"), dir.created.replace("{{providerId}}", "entra"));
    const baseUrl = (await shown.getByTestId("scim-baseUrl").textContent())!;
    const token = (await shown.getByTestId("scim-token").textContent())!;
    expect(baseUrl).toBe(`${app.url}/api/auth/scim/v2`);
    expect(token).toMatch(/^scim_[A-Za-z0-9]{43}$/);
    expect(JSON.stringify(await app.db.collection("scimTokens").find().toArray())).not.toContain(token);
    expect((await scimUsers(baseUrl, token)).status).toBe(200);
    await expectAccessible(owner);
    await screenshot(owner, "directory-token-created");

    // Shown once: read again, the page lists the connection without its token.
    await owner.reload();
    const card = owner.getByRole("article", { name: "entra" });
    await expectText(card.locator("p").first(), /^Token made .+\.$/);
    expect(await owner.content()).not.toContain(token);

    await card.getByRole("link", { name: dir.revoke.replace("{{providerId}}", "entra") }).click();
    await expectText(
      owner.locator(".danger-zone .warning"),
      dir.revokeWarning.replace("{{providerId}}", "entra"),
    );
    await screenshot(owner, "directory-revoke-confirm");
    await owner.getByRole("button", { name: dir.revokeConfirm.replace("{{providerId}}", "entra") }).click();
    await expectText(owner.getByRole("status"), dir.revoked);
    expect(await app.db.collection("scimTokens").countDocuments()).toBe(0);
    expect((await scimUsers(baseUrl, token)).status).toBe(401);
  });

  test("a member reads why there is nothing for them; a token form posted by hand is refused in words", async () => {
    const linus = await app.newPage();
    await signIn(linus, DEMO.linus);
    await linus.goto("/organizations/acme/security/directory");
    await expectHydrated(linus);
    await expectText(linus.getByTestId("directory-read-only"), en.organizations.directory.readOnly);
    expect(
      await linus.getByRole("button").filter({ hasText: en.organizations.directory.create }).count(),
    ).toBe(0);
    await linus.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      for (const [name, value] of [
        ["intent", "create"],
        ["providerId", "sneaky"],
      ]) {
        const input = document.createElement("input");
        input.name = name!;
        input.value = value!;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    });
    await expectText(linus.locator("main [role=alert]").first(), en.problems.ORGANIZATION_UPDATE_NOT_ALLOWED);
    expect(await app.db.collection("scimTokens").countDocuments()).toBe(0);
    await expectAccessible(linus);
    await screenshot(linus, "directory-member-refused");
  });
});
