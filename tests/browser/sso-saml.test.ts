import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startDnsServer, type TestDnsServer } from "#test/dns-server.ts";
import { type SamlIdpServer, startSamlIdpServer } from "#test/saml-idp-server.ts";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  heading,
  screenshot,
  useTestApp,
} from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * SAML single sign-on in the demo, end to end in Chromium (issue 31): Acme's owner pastes a SAML
 * identity provider's metadata on Security → Single sign-on, reads the entity ID and ACS URL to give
 * it, tests and turns the connection on; a new person types her work email on the sign-in page, is
 * sent to the IdP with an AuthnRequest (HTTP-Redirect), logs in there, and the IdP's page posts the
 * signed response to the ACS: she lands signed in as a member. The IdP runs in the test on
 * 127.0.0.1 and signs with xml-crypto (tests/support/saml-idp-server.ts).
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));

let dns: TestDnsServer;
let idp: SamlIdpServer;
beforeAll(async () => {
  dns = await startDnsServer();
  idp = await startSamlIdpServer();
  idp.setAccount("ada", { email: "ada@acme.test", displayName: "Ada Lovelace" });
});
afterAll(async () => {
  await dns?.close();
  await idp?.close();
});

const app = useTestApp(() => ({
  DEMO_DNS_SERVER: `127.0.0.1:${dns.port}`,
  DEMO_ALLOW_PRIVATE_ADDRESSES: "1",
}));

describe("SAML single sign-on", () => {
  test("the owner pastes the IdP's metadata and turns the connection on; a new person signs in through the IdP and becomes a member", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    // acme.test proved through the API (the pages' own test is tests/browser/sso.test.ts).
    const organization = await app.db.collection("organizations").findOne({ slug: "acme" });
    const organizationId = organization!._id.toHexString();
    const api = (path: string, data: unknown) =>
      owner.request.post(`${app.url}/api/auth${path}`, { data, headers: { origin: app.url } });
    const claimed = await api("/organization/add-domain", { organizationId, domain: "acme.test" });
    expect(claimed.status()).toBe(200);
    const { proof } = (await claimed.json()) as { proof: { txtName: string; txtValue: string } };
    dns.setTxt(proof.txtName, [[proof.txtValue]]);
    expect((await api("/organization/verify-domain", { organizationId, domain: "acme.test" })).status()).toBe(
      200,
    );

    await owner.goto("/organizations/acme/security/sso");
    await expectHydrated(owner);
    await owner.getByLabel(en.organizations.sso.types.samlLong).check();
    await owner.getByLabel(en.organizations.sso.fields.providerId, { exact: true }).fill("acme-saml");
    await owner.getByLabel(en.organizations.sso.fields.domain, { exact: true }).fill("acme.test");
    await owner.getByLabel(en.organizations.sso.fields.metadata, { exact: true }).fill(idp.metadata);
    await screenshot(owner, "sso-saml-form");
    await owner.getByRole("button", { name: en.organizations.sso.add }).click();
    await expectText(owner.getByRole("status"), en.organizations.sso.added);

    // Read from the metadata: the IdP's entity ID, sign-in URL and certificate.
    const stored = await app.db.collection("ssoProviders").findOne({ providerId: "acme-saml" });
    expect(stored).toMatchObject({ issuer: idp.entityId, enabled: false });
    expect(stored?.samlConfig.entryPoint).toBe(`${idp.url}/sso`);
    // What to give the IdP: Tessera's entity ID (its SP metadata URL) and the ACS URL.
    const connection = owner.getByRole("article", { name: /^acme-saml/ });
    const spMetadataUrl = `${app.url}/api/auth/sso/saml2/sp/metadata?providerId=acme-saml`;
    await expectText(connection.getByTestId("give-spEntityId"), spMetadataUrl);
    await expectText(connection.getByTestId("give-acsUrl"), `${app.url}/api/auth/sso/saml2/sp/acs/acme-saml`);
    const spMetadata = await (await fetch(spMetadataUrl)).text();
    expect(spMetadata).toContain(`entityID="${spMetadataUrl}"`);
    expect(spMetadata).toContain(`Location="${app.url}/api/auth/sso/saml2/sp/acs/acme-saml"`);

    await connection.getByRole("button", { name: en.organizations.sso.test }).click();
    const result = owner.getByRole("article", { name: /^acme-saml/ }).getByTestId("sso-test-result");
    await expectText(result.locator("p"), en.organizations.sso.testPassed);
    // The certificate's expiry, a year from the test IdP's making, as a day in the page's language.
    const [validUntil] = en.organizations.sso.checks.certificate.split("{{date}}");
    expect(await result.locator("li").allInnerTexts()).toEqual([
      en.organizations.sso.checks.entryPoint,
      expect.stringMatching(new RegExp(`^${validUntil}[A-Z][a-z]+ \\d{1,2}, \\d{4}\\.$`)),
    ]);
    await owner
      .getByRole("article", { name: /^acme-saml/ })
      .getByRole("button", { name: en.organizations.sso.enable })
      .click();
    await expectText(owner.getByRole("status"), en.organizations.sso.enabledNotice);
    await expectAccessible(owner);
    await screenshot(owner, "sso-saml-connection");

    // Ada, new: her work email, the IdP's login page, its form posted to the ACS, signed in.
    const ada = await app.newPage();
    await ada.goto("/sign-in");
    await expectHydrated(ada);
    await ada.getByLabel("Email").fill("ada@acme.test");
    await ada.getByRole("button", { name: en.signIn.sso }).click();
    await ada.waitForURL((url) => url.origin === idp.url && url.pathname === "/sso", { timeout: 10_000 });
    expect(new URL(ada.url()).searchParams.get("SAMLRequest")).toBeTruthy();
    await screenshot(ada, "sso-saml-idp-login");
    await ada.getByLabel("Username").fill("ada");
    await ada.getByRole("button", { name: "Log in" }).click();
    await expectPath(ada, "/");
    await expectText(heading(ada), /Welcome/);
    const user = await app.db.collection("users").findOne({ email: "ada@acme.test" });
    expect(user).toMatchObject({ name: "Ada Lovelace", emailVerified: true });
    const member = await app.db
      .collection("members")
      .findOne({ userId: user!._id, organizationId: organization!._id });
    expect(member?.role).toBe("member");
    await ada.goto("/organizations/acme");
    await expectText(heading(ada), "Acme Corporation");
    await screenshot(ada, "sso-saml-signed-in");
    expect(await app.db.collection("sessions").countDocuments({ userId: user!._id })).toBe(1);
  });
});
