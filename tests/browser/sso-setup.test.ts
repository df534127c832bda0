import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OidcIdp, startOidcIdp } from "#test/oidc-idp.ts";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectText,
  heading,
  screenshot,
  useTestApp,
} from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * The SSO setup link in the demo (issue 31 §2): Grace, Acme's owner, makes a link on Security →
 * Single sign-on and sees it once with its expiry; the IT admin, in a fresh browser with no
 * account, opens it and adds, tests and turns on an OIDC connection to a real oidc-provider on
 * 127.0.0.1 with the owners' own form; a second opening of the link is refused in words, in German.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const de = JSON.parse(readFileSync(join(APP_DIR, "app/locales/de.json"), "utf8"));
const CLIENT = { clientId: "tessera-acme-setup", clientSecret: "acme-setup-client-secret-0123456789" };
const ACME = "Acme Corporation";

const app = useTestApp({ DEMO_ALLOW_PRIVATE_ADDRESSES: "1" });

let idp: OidcIdp;
beforeAll(async () => {
  idp = await startOidcIdp({
    clients: [{ ...CLIENT, redirectUri: `${app.url}/api/auth/sso/callback/acme-entra` }],
  });
});
afterAll(async () => {
  await idp?.close();
});

describe("the SSO setup link", () => {
  test("the owner makes a link; someone with no account opens it, adds, tests and turns on a connection; a second opening is refused", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    await owner.goto("/organizations/acme/security/sso");
    await expectHydrated(owner);
    const setup = en.organizations.sso.setupLink;
    await owner.getByLabel(setup.email, { exact: true }).fill("it@acme.test");
    await owner.getByRole("button", { name: setup.create }).click();
    await expectText(owner.getByTestId("setup-link").locator("p").first(), setup.created);
    const url = await owner.getByTestId("setup-link-url").inputValue();
    expect(url).toMatch(new RegExp(`^${app.url}/sso-setup/[A-Za-z0-9]{43}$`));
    await expectText(owner.getByTestId("setup-link-expiry"), /^It works once, until .+\.$/);
    const links = await app.db
      .collection("verifications")
      .find({ identifier: /^sso-setup-/ })
      .toArray();
    expect(JSON.stringify(links)).not.toContain(url.split("/").pop());
    const live = links.find((row) => row.identifier.startsWith("sso-setup-link:"));
    expect(live!.expiresAt.getTime() - Date.now()).toBeGreaterThan(71.9 * 3600 * 1000);
    const link = JSON.parse(live!.value) as { linkId: string };
    await expectAccessible(owner);
    await screenshot(owner, "sso-setup-link-created");
    // Shown once: the page read again holds no link.
    await owner.reload();
    expect(await owner.getByTestId("setup-link-url").count()).toBe(0);

    // The IT admin: a fresh browser, no account, no cookie.
    const admin = await app.newPage();
    await admin.goto(url);
    await expectHydrated(admin);
    await expectText(heading(admin), en.ssoSetup.title);
    await screenshot(admin, "sso-setup-continue");
    await admin.getByRole("button", { name: en.ssoSetup.open }).click();
    await expectText(heading(admin), en.ssoSetup.openTitle.replace("{{organization}}", ACME));
    await expectText(
      admin.getByTestId("setup-scope"),
      new RegExp(`^You can set up the single sign-on of ${ACME}`),
    );
    await expectText(
      admin.locator("main p").filter({ hasText: en.organizations.sso.none }),
      en.organizations.sso.none,
    );

    const fields = en.organizations.sso.fields;
    await admin.getByLabel(fields.providerId, { exact: true }).fill("acme-entra");
    await admin.getByLabel(fields.domain, { exact: true }).fill("acme.test");
    await admin.getByLabel(fields.issuer, { exact: true }).fill(idp.issuer);
    await admin.getByLabel(fields.clientId, { exact: true }).fill(CLIENT.clientId);
    await admin.getByLabel(fields.clientSecret, { exact: true }).fill(CLIENT.clientSecret);
    await admin.getByRole("button", { name: en.organizations.sso.add }).click();
    await expectText(admin.getByRole("status"), en.organizations.sso.added);
    const card = admin.getByRole("article", { name: /^acme-entra/ });
    await expectText(card.getByTestId("give-redirectURI"), `${app.url}/api/auth/sso/callback/acme-entra`);
    await card.getByRole("button", { name: en.organizations.sso.test }).click();
    await expectText(
      admin
        .getByRole("article", { name: /^acme-entra/ })
        .getByTestId("sso-test-result")
        .locator("p"),
      en.organizations.sso.testPassed,
    );
    await admin
      .getByRole("article", { name: /^acme-entra/ })
      .getByRole("button", { name: en.organizations.sso.enable })
      .click();
    await expectText(admin.getByRole("status"), en.organizations.sso.enabledNotice);
    // No delete for the link's holder (the core refuses it too), and nothing but this page.
    expect(await admin.getByRole("link", { name: /acme-entra/ }).count()).toBe(0);
    await expectAccessible(admin);
    await screenshot(admin, "sso-setup-connection-on");

    const acme = await app.db.collection("organizations").findOne({ slug: "acme" });
    const grace = await app.db.collection("users").findOne({ email: DEMO.grace });
    const stored = await app.db.collection("ssoProviders").findOne({ providerId: "acme-entra" });
    expect(stored).toMatchObject({ organizationId: acme!._id, userId: grace!._id, enabled: true });
    expect(JSON.stringify(stored)).not.toContain(CLIENT.clientSecret);
    const actors = await app.db
      .collection("auditEvents")
      .find({ actor: `setup-link:${link.linkId}` })
      .toArray();
    expect(actors.map((row) => row.action)).toEqual(
      expect.arrayContaining([
        "organization.sso-setup-open",
        "organization.sso-register",
        "organization.sso-test",
        "organization.sso-update",
      ]),
    );

    // The owner sees the connection the IT admin added.
    await owner.goto("/organizations/acme/security/sso");
    await expectText(
      owner.getByRole("article", { name: /^acme-entra/ }).locator(".badge-verified"),
      en.organizations.sso.on,
    );

    // The link again, in another fresh browser, in German: refused, and whom to ask.
    const late = await app.newPage({ locale: "de-DE" });
    await late.goto(url);
    await expectHydrated(late);
    await late.getByRole("button", { name: de.ssoSetup.open }).click();
    const refused = late.getByTestId("setup-refused");
    await expectText(refused.getByRole("heading"), de.ssoSetup.refusedTitle);
    await expectText(refused.getByRole("alert"), de.errors.SSO_SETUP_LINK_INVALID);
    await expectText(refused.locator("p").last(), de.ssoSetup.askForNew);
    expect(await late.getByLabel(de.organizations.sso.fields.providerId, { exact: true }).count()).toBe(0);
    await expectAccessible(late);
    await screenshot(late, "sso-setup-refused-de");
    expect(await app.db.collection("ssoProviders").countDocuments()).toBe(1);
  });
});
