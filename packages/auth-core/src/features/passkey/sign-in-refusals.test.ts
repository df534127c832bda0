import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import {
  authenticateOptions,
  newAuthenticator,
  PASSKEY_CHALLENGE_COOKIE,
  PASSKEY_ERR,
  registerOptions,
  registerPasskey,
  type SoftwareAuthenticator,
  signInWithPasskey,
} from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { codeAt, PASSWORD, totpFromURI } from "#test/two-factor.ts";

/**
 * Every refusal of a passkey sign-in (docs/passkeys.md "Security"): the answer, no session cookie,
 * no session row, and the stored passkey unchanged.
 */
const openAuth = useFreshTestAuth();

async function adaWithPasskey(
  overrides: Parameters<typeof openAuth>[0] = {},
  authenticator = newAuthenticator(),
) {
  const t = await openAuth(overrides, { frozen: true });
  const ada = await signUpUser(t, { email: "ada@example.com" });
  const registered = await registerPasskey(ada.browser, authenticator);
  expect(registered.status).toBe(200);
  return { t, ada, authenticator, passkeyId: registered.body.id as string };
}

const sessionsOf = (t: TestAuth, userId: string) =>
  t.db.collection("sessions").countDocuments({ userId: new ObjectId(userId) });
const passkeyOf = (t: TestAuth, authenticator: SoftwareAuthenticator) =>
  t.db.collection("passkeys").findOne({ credentialID: authenticator.credentialID });

/** Signs in in a new browser and expects the refusal, with no session minted. */
async function expectRefused(
  t: TestAuth,
  userId: string,
  run: (browser: TestBrowser) => Promise<{ status: number; body: unknown }>,
  status = 401,
  body: unknown = PASSKEY_ERR.AUTHENTICATION_FAILED,
) {
  const before = await sessionsOf(t, userId);
  const browser = new TestBrowser(t.auth);
  const res = await run(browser);
  expect(res.status).toBe(status);
  expect(res.body).toEqual(body);
  expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  expect(await sessionsOf(t, userId)).toBe(before);
}

describe("a sign-in challenge", () => {
  it("answers once", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    const browser = new TestBrowser(t.auth);
    const options = await authenticateOptions(browser);
    const response = authenticator.getAssertion(options.body);
    const cookie = browser.cookieHeader();
    expect((await browser.post("/passkey/verify-authentication", { response })).status).toBe(200);
    await expectRefused(
      t,
      ada.id,
      (other) => other.post("/passkey/verify-authentication", { response }, { headers: { cookie } }),
      400,
      PASSKEY_ERR.CHALLENGE_NOT_FOUND,
    );
  });

  it("lives 5 minutes", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    await expectRefused(
      t,
      ada.id,
      async (browser) => {
        const options = await authenticateOptions(browser);
        t.advance(301);
        return browser.post("/passkey/verify-authentication", {
          response: authenticator.getAssertion(options.body),
        });
      },
      400,
      PASSKEY_ERR.CHALLENGE_NOT_FOUND,
    );
  });

  it("is bound to the browser that asked", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    const asking = new TestBrowser(t.auth);
    const options = await authenticateOptions(asking);
    const response = authenticator.getAssertion(options.body);
    await expectRefused(
      t,
      ada.id,
      (other) => other.post("/passkey/verify-authentication", { response }),
      400,
      PASSKEY_ERR.CHALLENGE_NOT_FOUND,
    );
  });

  it("cannot be extended by the browser: the expiry its cookie carries is signed", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    await expectRefused(
      t,
      ada.id,
      async (browser) => {
        const options = await authenticateOptions(browser);
        // The cookie carries `passkey-sign-in:<challenge>:<expires ms>.<signature>` (challenge.ts).
        const signed = decodeURIComponent(browser.cookies.get(PASSKEY_CHALLENGE_COOKIE)!);
        const dot = signed.lastIndexOf(".");
        const later = signed.slice(0, dot).replace(/:\d+$/, `:${t.now().getTime() + 3_600_000}`);
        browser.cookies.set(PASSKEY_CHALLENGE_COOKIE, encodeURIComponent(later + signed.slice(dot)));
        t.advance(301);
        return browser.post("/passkey/verify-authentication", {
          response: authenticator.getAssertion(options.body),
        });
      },
      400,
      PASSKEY_ERR.CHALLENGE_NOT_FOUND,
    );
  });

  it("of a registration does not sign in", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    await expectRefused(
      t,
      ada.id,
      async (browser) => {
        browser.cookies.set(SESSION_COOKIE, ada.browser.cookies.get(SESSION_COOKIE)!);
        const options = await registerOptions(browser);
        browser.cookies.delete(SESSION_COOKIE);
        const response = authenticator.getAssertion({ challenge: options.body.challenge, rpId: "localhost" });
        return browser.post("/passkey/verify-authentication", { response });
      },
      400,
      PASSKEY_ERR.CHALLENGE_NOT_FOUND,
    );
  });
});

describe("an assertion", () => {
  it("from another origin, for another RP id, or with another challenge is refused", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    for (const overrides of [
      { origin: "https://evil.example" },
      { rpID: "evil.example" },
      { challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
      { type: "webauthn.create" },
    ])
      await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, authenticator, overrides));
    expect(await passkeyOf(t, authenticator)).toMatchObject({ counter: 1, lastUsedAt: null });
  });

  it("without user verification is refused by default", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    await expectRefused(t, ada.id, (browser) =>
      signInWithPasskey(browser, authenticator, { flags: { uv: false } }),
    );
  });

  it("with a signature counter that went backwards is refused (a cloned authenticator)", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    expect((await signInWithPasskey(new TestBrowser(t.auth), authenticator)).status).toBe(200);
    expect(await passkeyOf(t, authenticator)).toMatchObject({ counter: 2 });
    authenticator.counter = 1; // the clone signs with 2 — not above what was seen
    await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, authenticator));
    authenticator.counter = 0;
    await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, authenticator));
    expect(await passkeyOf(t, authenticator)).toMatchObject({ counter: 2 });
  });

  it("of an authenticator that keeps no counter signs in again and again", async () => {
    const { t, authenticator } = await adaWithPasskey({}, newAuthenticator({ keepsCounter: false }));
    for (let round = 0; round < 3; round++)
      expect((await signInWithPasskey(new TestBrowser(t.auth), authenticator)).status).toBe(200);
    expect(await passkeyOf(t, authenticator)).toMatchObject({ counter: 0 });
  });

  it("naming another account's user handle is refused", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    const bob = await signUpUser(t, { email: "bob@example.com" });
    const bobs = newAuthenticator();
    await registerPasskey(bob.browser, bobs);
    await expectRefused(t, ada.id, (browser) =>
      signInWithPasskey(browser, authenticator, { userHandle: bobs.userHandle }),
    );
    await expectRefused(t, bob.id, (browser) =>
      signInWithPasskey(browser, authenticator, { userHandle: bobs.userHandle }),
    );
  });

  it("of a deleted passkey is refused", async () => {
    const { t, ada, authenticator, passkeyId } = await adaWithPasskey();
    expect((await ada.browser.post("/passkey/delete-passkey", { id: passkeyId })).status).toBe(200);
    await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, authenticator));
  });

  it("of an unknown credential is refused", async () => {
    const { t, ada } = await adaWithPasskey();
    await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, newAuthenticator()));
  });
});

describe("a passkey sign-in goes through the session pipeline", () => {
  it("a banned user gets no session", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    await t.db.collection("users").updateOne({ _id: new ObjectId(ada.id) }, { $set: { banned: true } });
    await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, authenticator), 403, {
      code: "BANNED_USER",
      message:
        "You have been banned from this application. Please contact support if you believe this is an error.",
    });
  });

  it("a two-factor user verified by the authenticator is not asked for the second factor", async () => {
    const { t, ada, authenticator } = await adaWithPasskey();
    await enableTwoFactor(t, ada.browser);
    const browser = new TestBrowser(t.auth);
    const res = await signInWithPasskey(browser, authenticator);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: ada.id, twoFactorEnabled: true });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it("a two-factor user not verified by the authenticator gets the two-factor challenge", async () => {
    const lenient = { passkey: { userVerification: "preferred" as const } };
    const { t, ada, authenticator } = await adaWithPasskey(
      lenient,
      newAuthenticator({ flags: { uv: false } }),
    );
    await enableTwoFactor(t, ada.browser);
    await expectRefused(t, ada.id, (browser) => signInWithPasskey(browser, authenticator), 200, {
      twoFactorRedirect: true,
      twoFactorMethods: ["totp", "otp"],
    });
  });
});

/** Ada turns on TOTP (enable with her password, then a first code). */
async function enableTwoFactor(t: TestAuth, browser: TestBrowser) {
  const enabled = await browser.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
  expect(enabled.status).toBe(200);
  const code = codeAt(totpFromURI(enabled.body.totpURI), t.now());
  expect((await browser.post("/two-factor/verify-totp", { code })).status).toBe(200);
}
