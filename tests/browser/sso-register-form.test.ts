import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { APP_DIR, DEMO, useTestApp } from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * The SSO page's add form sent empty (app/lib/sso-connections.server.ts): a connection name is
 * "required" whatever the protocol; only the protocol's own fields are "required for this protocol".
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));

const app = useTestApp();

describe("the SSO add form sent empty", () => {
  test("OIDC: name and issuer are 'required'; client ID and secret 'required for this protocol'", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    await page.goto("/organizations/acme/security/sso");
    await expectHydrated(page);
    await page.getByRole("button", { name: en.organizations.sso.add }).click();
    await page.locator("#field-providerId-error").waitFor();
    const errors = await page
      .locator(".field-error")
      .evaluateAll((nodes) => nodes.map((node) => [node.id, node.textContent]));
    expect(errors).toEqual([
      ["field-providerId-error", en.validation.REQUIRED],
      ["field-issuer-error", en.validation.REQUIRED],
      ["field-clientId-error", en.validation.SSO_FIELD_REQUIRED],
      ["field-clientSecret-error", en.validation.SSO_FIELD_REQUIRED],
    ]);
  });
});
