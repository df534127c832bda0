import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { addVirtualAuthenticator } from "#test/virtual-authenticator.ts";
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
import { signIn } from "./page-watch.ts";

/*
 * Sign-in without a password in the demo app (issue 30 §3): a mailed link behind the app's
 * confirmation page, a mailed code, and passkeys with Chromium's virtual authenticator (the DevTools
 * protocol's WebAuthn domain). One app and one browser for the file; the app runs on "localhost",
 * since WebAuthn refuses an IP address as the relying party.
 */

const locale = (tag: string) => JSON.parse(readFileSync(join(APP_DIR, `app/locales/${tag}.json`), "utf8"));
const en = locale("en");
const de = locale("de");
const fr = locale("fr");

const app = useTestApp({}, { host: "localhost" });

async function sessionsOf(email: string): Promise<number> {
  const user = await app.db.collection("users").findOne({ email });
  return user ? app.db.collection("sessions").countDocuments({ userId: user._id }) : 0;
}

async function passkeysOf(email: string): Promise<number> {
  const user = await app.db.collection("users").findOne({ email });
  return user ? app.db.collection("passkeys").countDocuments({ userId: user._id }) : 0;
}

/** The link and the code of the newest sign-in mail to `email`. */
async function signInMail(email: string, subject: string): Promise<{ url: string; code: string }> {
  await app.smtp.waitForMail(email, subject);
  const mail = app.smtp.mails.findLast(
    (m) => JSON.stringify(m.to ?? "").includes(email) && (m.subject ?? "").includes(subject),
  );
  const text = mail?.text ?? "";
  const url = text.match(/https?:\/\/\S*\/magic-link\/verify\?\S+/)?.[0];
  const code = text.match(/^\s*(\d{6})\s*$/m)?.[1];
  if (!url || !code) throw new Error(`no link or code in:\n${text}`);
  return { url, code };
}

async function askForLinkAndCode(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: en.signIn.emailLink }).click();
  await expectPath(page, "/sign-in/code");
}

describe("sign-in by a mailed link or code", () => {
  test("the link survives a mail scanner: its GET and HEAD sign nobody in, the person confirms on the app's page", async () => {
    const page = await app.newPage();
    await askForLinkAndCode(page, DEMO.grace);
    const sent = en.signInCode.sent.replace("{{email}}", DEMO.grace);
    await expectText(page.getByRole("status"), sent);
    const { url } = await signInMail(DEMO.grace, "Sign in to Tessera demo");
    const before = await sessionsOf(DEMO.grace);

    // A scanner: no cookies, follows redirects, GET and HEAD of every address.
    for (const method of ["GET", "HEAD"]) {
      const link = await fetch(url, { method, redirect: "manual" });
      expect(link.status).toBe(302);
      expect(link.headers.getSetCookie()).toEqual([]);
      const confirm = new URL(link.headers.get("location")!, url);
      expect(confirm.pathname).toBe("/sign-in/confirm");
      const pageAnswer = await fetch(confirm, { method, redirect: "manual" });
      expect(pageAnswer.status).toBe(200);
      expect(pageAnswer.headers.get("cache-control")).toBe("private, no-store");
      expect(pageAnswer.headers.getSetCookie().filter((c) => c.includes("session"))).toEqual([]);
      if (method === "GET") expect(await pageAnswer.text()).toContain(`Sign in as ${DEMO.grace}?`);
    }
    expect(await sessionsOf(DEMO.grace)).toBe(before);

    await page.goto(url);
    await expectPath(page, "/sign-in/confirm");
    await expectText(heading(page), `Sign in as ${DEMO.grace}?`);
    await expectAccessible(page);
    await screenshot(page, "passwordless-confirm-link");
    expect(await sessionsOf(DEMO.grace)).toBe(before);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(heading(page), /^Welcome, /);
    expect(await sessionsOf(DEMO.grace)).toBe(before + 1);

    // Used once: the same link now lands on the code page, which says so.
    const other = await app.newPage();
    await other.goto(url);
    await expectPath(other, "/sign-in/code");
    await expectText(other.getByRole("alert"), en.signInCode.linkFailed);
  });

  test("an address nobody has gets the same page as one that has an account", async () => {
    const page = await app.newPage();
    await page.goto("/sign-in");
    await expectText(page.getByRole("button", { name: en.passkeys.signIn }), en.passkeys.signIn);
    await expectAccessible(page);
    await screenshot(page, "passwordless-sign-in");
    await askForLinkAndCode(page, "nobody-yet@example.com");
    await expectText(
      page.getByRole("status"),
      en.signInCode.sent.replace("{{email}}", "nobody-yet@example.com"),
    );
    // The code signs the address up; with no name yet the home page greets it by address, signed in.
    const { code } = await signInMail("nobody-yet@example.com", "Sign in to Tessera demo");
    await page.getByLabel(en.signInCode.code).fill(code);
    await page.getByRole("button", { name: en.signInCode.submit, exact: true }).click();
    await expectText(heading(page), "Welcome, nobody-yet@example.com");
    await expectText(page.getByRole("link", { name: en.nav.account }).first(), en.nav.account);
  });

  test("by code, in German and without JavaScript: a wrong code says so and changes nothing, the right one signs in", async () => {
    const page = await app.newPage({ javaScript: false, locale: "de-DE" });
    await page.goto("/sign-in");
    await page.getByLabel("E-Mail").fill(DEMO.alan);
    await expectText(page.getByTestId("passkey-unavailable"), de.passkeys.needsJavaScript);
    await screenshot(page, "passwordless-sign-in-no-javascript-de");
    await page.getByRole("button", { name: de.signIn.emailLink }).click();
    await expectPath(page, "/sign-in/code");
    // Alan never chose a language: the mail comes in the page's, the browser's German.
    const { code } = await signInMail(DEMO.alan, "Anmeldung bei Tessera demo");
    const field = page.getByLabel(de.signInCode.code);
    expect(await field.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await field.getAttribute("inputmode")).toBe("numeric");
    const before = await sessionsOf(DEMO.alan);

    await field.fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: de.signInCode.submit, exact: true }).click();
    await expectText(page.locator("#field-code-error"), de.problems.INVALID_OTP);
    expect(await sessionsOf(DEMO.alan)).toBe(before);
    await screenshot(page, "passwordless-wrong-code-de");

    await page.getByLabel(de.signInCode.code).fill(code);
    await page.getByRole("button", { name: de.signInCode.submit, exact: true }).click();
    await expectText(heading(page), /^Willkommen, /);
    expect(await sessionsOf(DEMO.alan)).toBe(before + 1);

    // The same code again (in another browser, say): it is gone, and the core answers as for a wrong
    // one; the page must not tell the person to type it again.
    await page.context().clearCookies();
    await page.goto(`/sign-in/code?email=${encodeURIComponent(DEMO.alan)}`);
    await page.getByLabel(de.signInCode.code).fill(code);
    await page.getByRole("button", { name: de.signInCode.submit, exact: true }).click();
    await expectText(
      page.locator("#field-code-error"),
      "Dieser Code stimmt nicht oder gilt nicht mehr. Prüfen Sie die neueste E-Mail oder fordern Sie unten einen neuen Code an.",
    );
    await expect.poll(() => page.getByRole("button", { name: de.signInCode.resend }).isVisible()).toBe(true);
    expect(await sessionsOf(DEMO.alan)).toBe(before + 1);
    await screenshot(page, "passwordless-used-code-de");
  });

  test("a link that fails without an error page, and a code page for no address, say what happened", async () => {
    const page = await app.newPage();
    // The core sends a dead link without errorCallbackURL to the home page with ?error=INVALID_TOKEN.
    await page.goto("/api/auth/magic-link/verify?token=bad");
    await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("error") === "INVALID_TOKEN");
    await expectText(
      page.getByTestId("link-error"),
      "That link does not work: it was used already, it expired, or it was copied only in part. Ask for a new one.",
    );
    await screenshot(page, "passwordless-home-link-error");
    await page.goto("/?error=token_expired");
    await expectText(page.getByTestId("link-error"), en.home.linkError.expired);
    // A code nobody sends here: a sentence, never the code; and no key of Object.prototype.
    for (const code of ["SOMETHING_ELSE", "toString"]) {
      await page.goto(`/?error=${code}`);
      await expectText(page.getByTestId("link-error"), en.home.linkError.generic);
      expect(await page.locator("main").textContent()).not.toContain(code);
    }

    await page.goto("/sign-in/code?email=not-an-address");
    await expectPath(page, "/sign-in");
    expect(await page.getByLabel("Email").inputValue()).toBe("not-an-address");
    await expectText(page.locator("#field-email-error"), en.problems.INVALID_EMAIL);
    await screenshot(page, "passwordless-code-page-no-address");
    await page.getByLabel("Email").fill("someone-new@example.com");
    await page.getByRole("button", { name: en.signIn.emailLink }).click();
    await expectPath(page, "/sign-in/code");
    await expectText(
      page.getByRole("status"),
      en.signInCode.sent.replace("{{email}}", "someone-new@example.com"),
    );
  });
  test("in French, the summary names the code field as French writes it (a space before the colon)", async () => {
    const page = await app.newPage({ javaScript: false, locale: "fr-FR" });
    await page.goto(`/sign-in/code?email=${encodeURIComponent("personne@example.com")}`);
    await page.getByLabel(fr.signInCode.code).fill("000000");
    await page.getByRole("button", { name: fr.signInCode.submit, exact: true }).click();
    await expectText(
      page.getByTestId("error-summary").locator("li"),
      `${fr.signInCode.code} : ${fr.problems.INVALID_OTP}`,
    );
  });
});

/** Signs out; the app then shows /sign-in (whose conditional request may sign a passkey in at once). */
async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expectPath(page, "/sign-in");
}

/** Waits until the page is the home page reached by a sign-in (no `?welcome=1`), signed in as `name`. */
async function expectSignedInHome(page: Page, name: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === "/" && url.search === "", { timeout: 10_000 });
  await expectText(heading(page), `Welcome, ${name}`);
}

describe("passkeys", () => {
  const person = { name: "Pat Passkey", email: "pat@example.com" };

  test("passkey-first sign-up, in French: a name and an address, no password; the account lists the passkey", async () => {
    const page = await app.newPage({ locale: "fr-FR" });
    await addVirtualAuthenticator(page);
    await page.goto("/sign-up");
    await page.getByLabel(fr.fields.name).fill(person.name);
    await page.getByLabel(fr.fields.email).fill(person.email);
    await expectText(page.locator("main .passkey .hint"), fr.passkeys.signUpHint);
    await screenshot(page, "passkeys-sign-up-fr");
    await page.getByRole("button", { name: fr.passkeys.signUp }).click();
    await expectText(heading(page), fr.home.welcome.replace("{{name}}", person.name));
    const user = await app.db.collection("users").findOne({ email: person.email });
    expect(
      await app.db.collection("accounts").countDocuments({ userId: user?._id, providerId: "credential" }),
    ).toBe(0);
    expect(await passkeysOf(person.email)).toBe(1);

    await page.goto("/account/passkeys");
    const row = page.locator("tbody tr");
    expect(await row.count()).toBe(1);
    // Chromium's virtual authenticator names no known model and keeps its passkeys to itself.
    await expectText(row.locator("td").nth(1), fr.account.passkeys.unknownAuthenticator);
    await expectText(row.locator("td").nth(2), fr.account.passkeys.deviceBound);
    await expectText(row.locator("td").nth(4), fr.common.never);
    await expectAccessible(page);
    await screenshot(page, "passkeys-account-list-fr");

    // Its only way in: deleting it is refused with the page's message, and nothing changes.
    await row.getByRole("button", { name: new RegExp(`^${fr.common.delete}`) }).click();
    await expectText(
      page.getByTestId("error-summary").locator("li"),
      fr.problems.CANNOT_REMOVE_LAST_SIGN_IN_METHOD,
    );
    expect(await passkeysOf(person.email)).toBe(1);
    await screenshot(page, "passkeys-last-way-refused-fr");
  });

  test("sign-in by autofill (a conditional request on load) and by the button", async () => {
    const robin = { name: "Robin Button", email: "robin@example.com" };
    const page = await app.newPage();
    await addVirtualAuthenticator(page);
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill(robin.name);
    await page.getByLabel("Email").fill(robin.email);
    await page.getByRole("button", { name: en.passkeys.signUp }).click();
    await expectText(heading(page), `Welcome, ${robin.name}`);
    const user = await app.db.collection("users").findOne({ email: robin.email });

    // Autofill: signing out lands on /sign-in, whose conditional request the virtual authenticator
    // answers as a person who picks the passkey in the email field's list does; no button pressed.
    await signOut(page);
    await expectSignedInHome(page, robin.name);
    const used = await app.db.collection("passkeys").findOne({ userId: user?._id });
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
    expect(await page.getByRole("button", { name: en.passkeys.signIn }).count()).toBe(0);

    // The button: the page's conditional request is held back (never answered), so only the
    // button's request can sign in.
    let held = 0;
    await page.route("**/api/auth/passkey/generate-authenticate-options*", (route) => {
      if (held++ === 0) return;
      void route.continue();
    });
    await signOut(page);
    await expect.poll(() => held).toBe(1);
    expect(await page.getByLabel("Email").getAttribute("autocomplete")).toBe("username webauthn");
    await page.getByRole("button", { name: en.passkeys.signIn }).click();
    await expectSignedInHome(page, robin.name);
    expect(held).toBe(2);
  });

  test("the offer after a password sign-in: shown once, 'Not now' keeps it away", async () => {
    const page = await app.newPage();
    await addVirtualAuthenticator(page);
    await signIn(page, DEMO.barbara);
    const offer = page.getByTestId("passkey-offer");
    await expectText(offer.getByRole("heading"), en.passkeys.offer.title);
    await expectAccessible(page);
    await screenshot(page, "passkeys-offer");
    // Shown once: another page of the same sign-in does not ask again.
    await page.reload();
    await expectText(heading(page), /^Welcome, /);
    expect(await offer.count()).toBe(0);

    await signOut(page);
    await signIn(page, DEMO.barbara);
    await offer.getByRole("button", { name: en.passkeys.offer.notNow }).click();
    await expect.poll(() => offer.count()).toBe(0);
    const dismissedUntil = async () =>
      (await page.context().cookies()).find((c) => c.name.endsWith("passkey-offer-dismissed"))?.expires ?? 0;
    await expect.poll(dismissedUntil).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
    await signOut(page);
    await signIn(page, DEMO.barbara);
    await page.goto("/account");
    expect(await offer.count()).toBe(0);
    expect(await passkeysOf(DEMO.barbara)).toBe(0);
  });

  test("adding a passkey from the offer, renaming it and deleting it (the password still signs in)", async () => {
    const page = await app.newPage();
    await addVirtualAuthenticator(page);
    await signIn(page, DEMO.linus);
    const offer = page.getByTestId("passkey-offer");
    await offer.getByRole("button", { name: en.passkeys.offer.add }).click();
    await expectText(page.getByRole("status").first(), en.passkeys.offer.added);
    expect(await passkeysOf(DEMO.linus)).toBe(1);

    await page.goto("/account/passkeys");
    await page.getByLabel(`New name for ${en.account.passkeys.unnamed}`).fill("Work laptop");
    await page.getByRole("button", { name: /^Rename/ }).click();
    await expectText(page.getByRole("status"), en.account.passkeys.renamed);
    expect(await page.getByLabel("New name for Work laptop").inputValue()).toBe("Work laptop");
    await screenshot(page, "passkeys-account-renamed");

    await page.getByRole("button", { name: "Delete Work laptop" }).click();
    await expectText(page.getByRole("status"), en.account.passkeys.deleted);
    await expectText(page.locator("main p.muted"), en.account.passkeys.none);
    expect(await passkeysOf(DEMO.linus)).toBe(0);
    await screenshot(page, "passkeys-account-none");

    // A made-up outcome in the URL is no notice (nor an error page).
    await page.goto("/account/passkeys?done=toString");
    await expectText(page.locator("main p.muted"), en.account.passkeys.none);
    expect(await page.getByRole("status").count()).toBe(0);

    // One notice, for what happened last: added (not "deleted" beside it), then a refused rename's problem alone.
    await page.getByRole("button", { name: en.account.passkeys.add }).click();
    await expect.poll(() => page.getByRole("status").allInnerTexts()).toEqual([en.account.passkeys.added]);
    expect(await passkeysOf(DEMO.linus)).toBe(1);
    await page.getByLabel(`New name for ${en.account.passkeys.unnamed}`).fill(" ");
    await page.getByRole("button", { name: /^Rename/ }).click();
    await expectText(page.getByTestId("error-summary").locator("li"), en.problems.NAME_REQUIRED);
    await expect.poll(() => page.getByRole("status").allInnerTexts()).toEqual([]);
  });
});
