import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { addVirtualAuthenticator } from "#test/virtual-authenticator.ts";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  screenshot,
  useTestApp,
} from "./app-harness.ts";
import { signIn } from "./page-watch.ts";

/**
 * An organization's authenticator policy in the demo (docs/passkeys.md "Authenticator policy"): the
 * owner sets it on /organizations/<slug>/security; a member whose passkey (Chromium's virtual
 * authenticator) does not fit is asked for one that does; the admin's user page lists and removes
 * passkeys.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const YUBIKEY_5_NFC = "fa2b99dc-9e39-4257-8f92-4a30d23c4118";

// localhost: WebAuthn refuses an IP address as the relying party id.
const app = useTestApp({}, { host: "localhost" });

async function userId(email: string) {
  return (await app.db.collection("users").findOne({ email }))!._id;
}

async function storedPolicy() {
  return (await app.db.collection("organizations").findOne({ slug: "acme" }))?.passkeyPolicy;
}

describe("the organization's passkey policy page", () => {
  test("the owner allows only YubiKeys; a member whose passkey is another model is asked to add one that fits", async () => {
    // Linus (a member of Acme) adds a passkey on this browser's platform authenticator.
    const member = await app.newPage();
    await addVirtualAuthenticator(member);
    await signIn(member, DEMO.linus);
    await member.goto("/account/passkeys");
    await member.getByRole("button", { name: en.account.passkeys.add }).first().click();
    await expect
      .poll(async () => app.db.collection("passkeys").countDocuments({ userId: await userId(DEMO.linus) }))
      .toBe(1);
    await member.goto("/organizations/acme");
    expect(await member.getByTestId("passkey-policy-ask").count()).toBe(0);

    // Grace (the owner) allows only the YubiKey 5 NFC; a bad entry first is refused, nothing stored.
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    await owner.goto("/organizations/acme/security");
    // No policy yet: any model, nothing asked of anyone.
    await expectText(owner.getByTestId("passkey-policy-summary"), en.organizations.security.summaryAny);
    await screenshot(owner, "passkey-policy-none");
    await owner.getByLabel(en.organizations.security.modeAllow).check();
    await owner.getByLabel(en.organizations.security.aaguids).fill("not-a-model");
    await owner.getByRole("button", { name: en.organizations.security.save }).click();
    await expectText(owner.locator("#field-aaguids-error"), /Invalid aaguids/);
    expect(await storedPolicy()).toBeUndefined();
    await owner.getByLabel(en.organizations.security.aaguids).fill(YUBIKEY_5_NFC);
    await owner.getByRole("button", { name: en.organizations.security.save }).click();
    await expectPath(owner, "/organizations/acme/security");
    await expectText(owner.getByRole("status"), en.common.saved);
    await expectText(
      owner.getByTestId("passkey-policy-summary"),
      en.organizations.security.summaryAllow.replace("{{list}}", YUBIKEY_5_NFC),
    );
    expect(await storedPolicy()).toEqual({
      requireUserVerification: false,
      mode: "allow-list",
      aaguids: [YUBIKEY_5_NFC],
    });
    await expectAccessible(owner);
    await screenshot(owner, "passkey-policy-owner-sets");

    // Linus is asked, on every page of the organization, and sees why his passkey does not fit.
    await member.goto("/organizations/acme");
    await expectText(
      member.getByTestId("passkey-policy-ask").locator("p").first(),
      en.organizations.passkeyPolicy.ask,
    );
    const ask = member.getByTestId("passkey-policy-ask");
    expect(
      await ask.getByRole("link", { name: en.organizations.passkeyPolicy.add }).getAttribute("href"),
    ).toBe("/account/passkeys");
    const details = ask.getByRole("link", { name: en.organizations.passkeyPolicy.details });
    expect(await details.getAttribute("href")).toBe("/organizations/acme/security");
    await member.goto("/organizations/acme/security");
    await expectText(
      member.locator("li[data-fits=false]"),
      new RegExp(en.organizations.security.misfitModel),
    );
    await expectText(member.getByTestId("passkey-policy-read-only"), en.organizations.security.readOnly);
    expect(await member.getByLabel(en.organizations.security.aaguids).count()).toBe(0);
    await expectAccessible(member);
    await screenshot(member, "passkey-policy-member-asked");

    // Back to any model: nobody is asked any more.
    await owner.getByLabel(en.organizations.security.modeAny, { exact: true }).check();
    await owner.getByRole("button", { name: en.organizations.security.save }).click();
    await expect.poll(async () => (await storedPolicy())?.mode).toBe("any");
    await member.goto("/organizations/acme");
    expect(await member.getByTestId("passkey-policy-ask").count()).toBe(0);
  });

  test("the admin's user page lists the user's passkeys by authenticator, and removes one (audited)", async () => {
    const linus = await userId(DEMO.linus);
    expect(await app.db.collection("passkeys").countDocuments({ userId: linus })).toBe(1);
    const admin = await app.newPage();
    await signIn(admin, DEMO.admin.email, DEMO.admin.password);
    await admin.goto(`/admin/users/${linus.toHexString()}`);
    const table = admin.getByRole("table", { name: en.admin.user.passkeys.title });
    await expectText(table.locator("tbody tr td").nth(2), en.account.passkeys.deviceBound);
    await screenshot(admin, "passkey-policy-admin-user-passkeys");
    await table.getByRole("button", { name: `Remove the passkey ${en.account.passkeys.unnamed}` }).click();
    await expectText(admin.getByRole("status"), en.common.saved);
    await expectText(admin.locator("main"), new RegExp(en.admin.user.passkeys.none));
    expect(await app.db.collection("passkeys").countDocuments({ userId: linus })).toBe(0);
    expect(
      await app.db.collection("auditEvents").countDocuments({ action: "passkey.remove", subjectId: linus }),
    ).toBe(1);
  });
});
