import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createTestIdp } from "#test/saml-idp.ts";
import { APP_DIR, DEMO, expectText, screenshot, useTestApp } from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * The SSO page's add form (app/components/sso-connection-form.tsx): sent empty, a connection name is
 * "required" whatever the protocol, only the protocol's own fields "required for this protocol"
 * (app/lib/sso-connections.server.ts); the addresses to give the IdP follow the name as it is typed
 * and match what the core answers once the connection exists; a certificate the core cannot read
 * is named at the certificate field and nothing is added.
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

describe("the addresses to give the identity provider", () => {
  test("follow the connection name as it is typed, per protocol, and are the core's once added", async () => {
    const page = await app.newPage();
    await signIn(page, DEMO.grace);
    await page.goto("/organizations/acme/security/sso");
    await expectHydrated(page);
    const api = `${app.url}/api/auth`;
    await expectText(page.getByTestId("give-preview-empty"), en.organizations.sso.previewEmpty);
    const name = page.getByLabel(en.organizations.sso.fields.providerId, { exact: true });
    await name.fill("acme-okta");
    await expectText(page.getByTestId("preview-redirectURI"), `${api}/sso/callback/acme-okta`);
    await page.getByLabel(en.organizations.sso.types.samlLong).check();
    await name.fill("acme-saml");
    await expectText(page.getByTestId("preview-acsUrl"), `${api}/sso/saml2/sp/acs/acme-saml`);
    const metadataUrl = `${api}/sso/saml2/sp/metadata?providerId=acme-saml`;
    await expectText(page.getByTestId("preview-spEntityId"), metadataUrl);
    await expectText(page.getByTestId("preview-spMetadataUrl"), metadataUrl);
    expect(await page.getByRole("button", { name: en.organizations.domains.copy }).count()).toBe(3);
    await screenshot(page, "sso-add-form-addresses");

    // A certificate with a line lost in copying: refused at its field, nothing added.
    const idp = createTestIdp();
    const lines = idp.certificate.trim().split("\n");
    await page.getByLabel(en.organizations.sso.fields.domain, { exact: true }).fill("acme-saml.test");
    await page.getByLabel(en.organizations.sso.fields.issuer, { exact: true }).fill(idp.entityId);
    await page.getByLabel(en.organizations.sso.fields.entryPoint, { exact: true }).fill(idp.ssoUrl);
    const cert = page.getByLabel(en.organizations.sso.fields.cert, { exact: true });
    await cert.fill([...lines.slice(0, 3), ...lines.slice(4)].join("\n"));
    await page.getByRole("button", { name: en.organizations.sso.add }).click();
    await expectText(page.locator("#field-cert-error"), en.errors.SAML_CERTIFICATE_INVALID);
    await screenshot(page, "sso-add-form-certificate-refused");
    expect(await app.db.collection("ssoProviders").countDocuments({ providerId: "acme-saml" })).toBe(0);
    // The form came back with the name: the addresses still show; the whole certificate is taken.
    await expectText(page.getByTestId("preview-acsUrl"), `${api}/sso/saml2/sp/acs/acme-saml`);
    await cert.fill(idp.certificate);
    await page.getByRole("button", { name: en.organizations.sso.add }).click();
    await expectText(page.getByRole("status"), en.organizations.sso.added);
    const connection = page.getByRole("article", { name: /^acme-saml/ });
    await expectText(connection.getByTestId("give-acsUrl"), `${api}/sso/saml2/sp/acs/acme-saml`);
    await expectText(connection.getByTestId("give-spEntityId"), metadataUrl);
  });
});
