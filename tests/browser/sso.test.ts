import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startDnsServer, type TestDnsServer } from "#test/dns-server.ts";
import { type OidcIdp, startOidcIdp } from "#test/oidc-idp.ts";
import { linkIn } from "../e2e/smtp-sink.ts";
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
 * Single sign-on in the demo, end to end in Chromium (issue 31): Grace, Acme's owner, proves
 * acme.test on Security → Domains against a DNS server on 127.0.0.1, adds an OIDC connection to a
 * real oidc-provider on 127.0.0.1 on Security → Single sign-on, tests it, turns it on and requires
 * SSO for the domain; a new person types her work email on the sign-in page, logs in at the IdP and
 * lands signed in as a member. A password sign-in of the domain is refused with the organization's
 * SSO offered instead.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const de = JSON.parse(readFileSync(join(APP_DIR, "app/locales/de.json"), "utf8"));
const CLIENT = { clientId: "tessera-acme-demo", clientSecret: "acme-demo-client-secret-0123456789" };
const ACME = "Acme Corporation";

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns?.close();
});

const app = useTestApp(() => ({
  DEMO_DNS_SERVER: `127.0.0.1:${dns.port}`,
  DEMO_ALLOW_PRIVATE_ADDRESSES: "1",
}));

let idp: OidcIdp;
beforeAll(async () => {
  idp = await startOidcIdp({
    clients: [{ ...CLIENT, redirectUri: `${app.url}/api/auth/sso/callback/acme-oidc` }],
    loginPage: true,
  });
  idp.setAccount("hedy", { email: "hedy@acme.test", email_verified: true, name: "Hedy Lamarr" });
  idp.setAccount("ken", { email: "ken@acme.test", email_verified: true, name: "Ken Thompson" });
});
afterAll(async () => {
  await idp?.close();
});

async function organizationId() {
  return (await app.db.collection("organizations").findOne({ slug: "acme" }))!._id;
}

async function membershipOf(email: string) {
  const user = await app.db.collection("users").findOne({ email });
  if (!user) return null;
  return app.db.collection("members").findOne({ userId: user._id, organizationId: await organizationId() });
}

/** The IdP's login page: the account id, then back to the app through the callback. */
async function logInAtIdp(page: Page, accountId: string) {
  await page.waitForURL((url) => url.origin === idp.issuer, { timeout: 10_000 });
  await page.getByLabel("Username").fill(accountId);
  await page.getByRole("button", { name: "Log in" }).click();
}

function card(page: Page, name: string) {
  return page.getByRole("article", { name: new RegExp(`^${name.replace(/\./g, "\\.")}`) });
}

describe("single sign-on pages and sign-in", () => {
  test("the owner proves acme.test, adds and tests an OIDC connection, requires SSO; a new person signs in with her work email and becomes a member", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    await owner.goto("/organizations/acme/security/domains");
    await expectHydrated(owner);
    await expectText(owner.getByRole("heading", { level: 2 }), en.organizations.domains.title);
    await screenshot(owner, "sso-domains-empty");

    // A free-mail domain is refused under the field, in words; nothing is stored.
    await owner.getByLabel(en.organizations.domains.domain, { exact: true }).fill("gmail.com");
    await owner.getByRole("button", { name: en.organizations.domains.add }).click();
    await expectText(owner.locator("#field-domain-error"), en.errors.DOMAIN_NOT_CLAIMABLE);
    expect(await app.db.collection("organizationDomains").countDocuments()).toBe(0);

    await owner.getByLabel(en.organizations.domains.domain, { exact: true }).fill("acme.test");
    await owner.getByRole("button", { name: en.organizations.domains.add }).click();
    await expectText(owner.getByRole("status"), en.organizations.domains.added);
    const acme = card(owner, "acme.test");
    const txtName = await acme.getByTestId("proof-txtName").textContent();
    const txtValue = await acme.getByTestId("proof-txtValue").textContent();
    expect(txtName).toBe("_tessera-challenge.acme.test");
    await expectText(acme.getByTestId("proof-fileURL"), /^https:\/\/acme\.test\/\.well-known\//);

    // "Verify now" before the record is published: the problem in words, in the domain's card.
    await acme.getByRole("button", { name: en.organizations.domains.verify }).click();
    await expectText(
      card(owner, "acme.test").getByTestId("domain-problem"),
      en.errors.DOMAIN_PROOF_NOT_FOUND,
    );
    await expectAccessible(owner);
    await screenshot(owner, "sso-domains-pending");

    dns.setTxt(txtName!, [[txtValue!]]);
    await card(owner, "acme.test").getByRole("button", { name: en.organizations.domains.verify }).click();
    await expectText(owner.getByRole("status"), en.organizations.domains.verifiedNotice);
    await expectText(card(owner, "acme.test").locator(".badge"), en.organizations.domains.status.verified);
    expect((await app.db.collection("organizationDomains").findOne({ domain: "acme.test" }))?.status).toBe(
      "verified",
    );

    // Ken signed up with a password (and proved his address) before SSO was required: he meets
    // the refusal in the next test.
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ email: "ken@acme.test", password: DEMO.password, name: "Ken Thompson" }),
    });
    expect(signUp.status).toBe(200);
    const proof = await app.smtp.waitForMail("ken@acme.test", "Verify your email");
    await (await app.newPage()).goto(linkIn(proof, "/verify-email").toString());
    await expect
      .poll(() => app.db.collection("users").countDocuments({ email: "ken@acme.test", emailVerified: true }))
      .toBe(1);

    // The connection: OIDC against the IdP, added turned off, what to give the IdP shown.
    await owner.goto("/organizations/acme/security/sso");
    await expectHydrated(owner);
    await screenshot(owner, "sso-connections-empty");
    await owner.getByLabel(en.organizations.sso.fields.providerId, { exact: true }).fill("acme-oidc");
    await owner.getByLabel(en.organizations.sso.fields.domain, { exact: true }).fill("acme.test");
    await owner.getByLabel(en.organizations.sso.fields.issuer, { exact: true }).fill(idp.issuer);
    await owner.getByLabel(en.organizations.sso.fields.clientId, { exact: true }).fill(CLIENT.clientId);
    await owner
      .getByLabel(en.organizations.sso.fields.clientSecret, { exact: true })
      .fill(CLIENT.clientSecret);
    await owner.getByRole("button", { name: en.organizations.sso.add }).click();
    await expectText(owner.getByRole("status"), en.organizations.sso.added);
    const connection = card(owner, "acme-oidc");
    await expectText(
      connection.getByTestId("give-redirectURI"),
      `${app.url}/api/auth/sso/callback/acme-oidc`,
    );
    expect(await owner.content()).not.toContain(CLIENT.clientSecret);
    // The add form starts empty again: the typed secret does not stay in the page.
    expect(
      await owner.getByLabel(en.organizations.sso.fields.clientSecret, { exact: true }).inputValue(),
    ).toBe("");
    const stored = await app.db.collection("ssoProviders").findOne({ providerId: "acme-oidc" });
    expect(stored?.enabled).toBe(false);
    expect(JSON.stringify(stored)).not.toContain(CLIENT.clientSecret);

    await connection.getByRole("button", { name: en.organizations.sso.test }).click();
    const result = card(owner, "acme-oidc").getByTestId("sso-test-result");
    await expectText(result.locator("p"), en.organizations.sso.testPassed);
    expect(await result.locator("li").allInnerTexts()).toEqual([
      en.organizations.sso.checks.discovery,
      en.organizations.sso.checks.issuer,
      en.organizations.sso.checks.jwks,
    ]);
    await expectAccessible(owner);
    await screenshot(owner, "sso-connection-tested");
    await card(owner, "acme-oidc").getByRole("button", { name: en.organizations.sso.enable }).click();
    await expectText(owner.getByRole("status"), en.organizations.sso.enabledNotice);
    expect((await app.db.collection("ssoProviders").findOne({ providerId: "acme-oidc" }))?.enabled).toBe(
      true,
    );

    // Require SSO for acme.test.
    await owner.goto("/organizations/acme/security/domains");
    await expectHydrated(owner);
    await owner
      .getByLabel(en.organizations.domains.requireSso.replace("{{domain}}", "acme.test"), { exact: true })
      .check();
    await owner.getByRole("button", { name: en.organizations.domains.saveSettings }).click();
    await expectText(owner.getByRole("status"), en.common.saved);
    const domain = await app.db.collection("organizationDomains").findOne({ domain: "acme.test" });
    expect(domain?.settings).toMatchObject({ requireSso: true });
    await screenshot(owner, "sso-domains-verified");
    // Now the one connection is the domain's only way in: turning it off is refused, and says why.
    await owner.goto("/organizations/acme/security/sso");
    await expectHydrated(owner);
    await card(owner, "acme-oidc").getByRole("button", { name: en.organizations.sso.disable }).click();
    await expectText(card(owner, "acme-oidc").getByRole("alert"), en.errors.SSO_LAST_CONNECTION_REQUIRED);
    expect((await app.db.collection("ssoProviders").findOne({ providerId: "acme-oidc" }))?.enabled).toBe(
      true,
    );
    await screenshot(owner, "sso-last-connection-refused");

    // Hedy, new: her work email on the sign-in page, the IdP's login, back signed in as a member.
    const hedy = await app.newPage();
    await hedy.goto("/sign-in");
    await expectHydrated(hedy);
    await screenshot(hedy, "sso-sign-in");
    await hedy.getByLabel("Email").fill("hedy@acme.test");
    await hedy.getByRole("button", { name: en.signIn.sso }).click();
    await hedy.waitForURL((url) => url.origin === idp.issuer, { timeout: 10_000 });
    await screenshot(hedy, "sso-idp-login");
    await logInAtIdp(hedy, "hedy");
    await expectPath(hedy, "/");
    await expectText(heading(hedy), /Welcome/);
    expect((await membershipOf("hedy@acme.test"))?.role).toBe("member");
    await hedy.goto("/organizations/acme");
    await expectText(heading(hedy), ACME);
    await screenshot(hedy, "sso-signed-in-member");
  });

  test("a password sign-in of an address that must use SSO shows the organization's sentence and its SSO button, which signs the person in", async () => {
    const ken = await app.newPage();
    await ken.goto("/sign-in");
    await expectHydrated(ken);
    await ken.getByLabel("Email").fill("ken@acme.test");
    await ken.getByLabel("Password").fill(DEMO.password);
    await ken.getByRole("button", { name: "Sign in", exact: true }).click();
    const refusal = ken.getByTestId("sso-required");
    await expectText(refusal.locator("p"), en.errors.SSO_REQUIRED.replace("{organization}", ACME));
    const button = refusal.getByRole("button", {
      name: en.signIn.ssoContinue.replace("{{organization}}", ACME),
    });
    await expectAccessible(ken);
    await screenshot(ken, "sso-required-en");
    expect(await membershipOf("ken@acme.test")).toBeNull();
    await button.click();
    await logInAtIdp(ken, "ken");
    await expectPath(ken, "/");
    await expectText(heading(ken), /Welcome/);
    expect((await membershipOf("ken@acme.test"))?.role).toBe("member");
  });

  test("in German: the refusal and its button in German; a failed callback's code reads as a sentence", async () => {
    const page = await app.newPage({ locale: "de-DE" });
    await page.goto("/sign-in");
    await expectHydrated(page);
    await page.locator("#field-email").fill("ken@acme.test");
    await page.locator("#field-password").fill(DEMO.password);
    await page.getByRole("button", { name: de.signIn.submit, exact: true }).click();
    const refusal = page.getByTestId("sso-required");
    await expectText(refusal.locator("p"), de.errors.SSO_REQUIRED.replace("{organization}", ACME));
    await expectText(refusal.getByRole("button"), de.signIn.ssoContinue.replace("{{organization}}", ACME));
    await screenshot(page, "sso-required-de");

    // The callback sends failures back to the sign-in page with the catalogue code.
    await page.goto("/sign-in?error=SSO_STATE_INVALID");
    await expectText(page.getByTestId("error-summary").locator("li"), de.errors.SSO_STATE_INVALID);
    await screenshot(page, "sso-callback-error-de");
  });

  test("a member reads the verified domains and what they do, and why the domain and SSO pages hold no forms for them", async () => {
    const linus = await app.newPage();
    await signIn(linus, DEMO.linus);
    await linus.goto("/organizations/acme/security/domains");
    await expectText(linus.getByTestId("domains-read-only"), en.organizations.domains.readOnly);
    expect(await linus.getByLabel(en.organizations.domains.domain, { exact: true }).count()).toBe(0);
    // The verified domain and what it does, in words, with no button or settings form.
    const acme = card(linus, "acme.test");
    await expectText(acme.locator(".badge"), en.organizations.domains.status.verified);
    expect(await acme.getByTestId("domain-settings").locator("li").allInnerTexts()).toEqual([
      en.organizations.domains.memberNoAutoJoin.replace("{{domain}}", "acme.test"),
      en.organizations.domains.memberRequireSso.replace("{{domain}}", "acme.test"),
    ]);
    expect(await acme.getByRole("button").count()).toBe(0);
    expect(await acme.getByRole("link").count()).toBe(0);
    await screenshot(linus, "sso-member-domains");
    await linus.goto("/organizations/acme/security/sso");
    await expectText(linus.getByTestId("sso-read-only"), en.organizations.sso.readOnly);
    expect(await linus.getByRole("button", { name: en.organizations.sso.add }).count()).toBe(0);
    await expectAccessible(linus);
    await screenshot(linus, "sso-member-read-only");
  });
});
