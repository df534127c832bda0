import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import { mailedLink, requestResetToken } from "#test/mail.ts";
import {
  newAuthenticator,
  PASSKEY_ERR,
  registerPasskey,
  type SoftwareAuthenticator,
  signInWithPasskey,
} from "#test/passkey.ts";
import { mailedSignIn, PASSWORDLESS } from "#test/passwordless.ts";
import { type Overrides, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * A pre-registered account (docs/passkeys.md): without requireEmailVerification a stranger signs up
 * with the victim's address and a passkey; when the victim takes the account back by proving the
 * mailbox, the stranger's passkey goes with the password. A verify-email click keeps it.
 */
const openAuth = useFreshTestAuth();
const VICTIM = "victim@example.com";
const NEW_PASSWORD = "the owner's new passphrase";

interface Squat {
  t: TestAuth;
  stranger: TestBrowser;
  authenticator: SoftwareAuthenticator;
  userId: string;
}

/** The stranger's passkey-first sign-up under the victim's address (signed in, unverified). */
async function squat(overrides: Overrides = {}): Promise<Squat> {
  const t = await openAuth(overrides);
  const stranger = new TestBrowser(t.auth);
  const authenticator = newAuthenticator();
  const res = await registerPasskey(stranger, authenticator, {
    query: { email: VICTIM, displayName: "Not the victim" },
  });
  expect(res.status).toBe(200);
  expect(res.body.user).toMatchObject({ email: VICTIM, emailVerified: false });
  return { t, stranger, authenticator, userId: res.body.user.id };
}

const passkeyRow = (t: TestAuth, authenticator: SoftwareAuthenticator) =>
  t.db.collection("passkeys").findOne({ credentialID: authenticator.credentialID });

async function resetByLink(t: TestAuth): Promise<void> {
  const token = await requestResetToken(t, VICTIM);
  const res = await new TestBrowser(t.auth).post("/reset-password", { token, newPassword: NEW_PASSWORD });
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: true } });
}

/** The stranger's passkey signs nobody in any more, and its row is gone. */
async function expectStrangerOut({ t, stranger, authenticator }: Squat): Promise<void> {
  const browser = new TestBrowser(t.auth);
  const res = await signInWithPasskey(browser, authenticator);
  expect({ status: res.status, body: res.body }).toEqual({
    status: 401,
    body: PASSKEY_ERR.AUTHENTICATION_FAILED,
  });
  expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  expect(await passkeyRow(t, authenticator)).toBeNull();
  expect((await stranger.get("/get-session")).body).toBeNull();
}

describe("a passkey registered while the address was unproven", () => {
  it("is marked so when stored", async () => {
    const { t, authenticator } = await squat();
    expect(await passkeyRow(t, authenticator)).toMatchObject({ registeredUnverified: true });
  });

  it("goes when the owner resets the password by the mailed link", async () => {
    const squatted = await squat();
    await resetByLink(squatted.t);
    await expectStrangerOut(squatted);
    const owner = await new TestBrowser(squatted.t.auth).post("/sign-in/email", {
      email: VICTIM,
      password: NEW_PASSWORD,
    });
    expect(owner.status).toBe(200);
  });

  it("goes when the owner resets the password by a mailed code", async () => {
    const squatted = await squat(PASSWORDLESS);
    const { t } = squatted;
    await new TestBrowser(t.auth).post("/forget-password/email-otp", { email: VICTIM });
    const otp = mailedSignIn(t, VICTIM).code;
    const res = await new TestBrowser(t.auth).post("/email-otp/reset-password", {
      email: VICTIM,
      otp,
      password: NEW_PASSWORD,
    });
    expect(res.body).toEqual({ success: true });
    await expectStrangerOut(squatted);
  });

  it("goes when the owner signs in by a mailed code, and the owner's session stays", async () => {
    const squatted = await squat(PASSWORDLESS);
    const { t } = squatted;
    await new TestBrowser(t.auth).post("/email-otp/send-verification-otp", {
      email: VICTIM,
      type: "sign-in",
    });
    const owner = new TestBrowser(t.auth);
    const res = await owner.post("/sign-in/email-otp", { email: VICTIM, otp: mailedSignIn(t, VICTIM).code });
    expect(res.status).toBe(200);
    await expectStrangerOut(squatted);
    expect((await owner.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(squatted.userId);
  });

  it("goes when the owner confirms a mailed sign-in link", async () => {
    const squatted = await squat(PASSWORDLESS);
    const { t } = squatted;
    await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: VICTIM });
    const { token } = mailedSignIn(t, VICTIM);
    expect((await new TestBrowser(t.auth).post("/magic-link/verify", { token })).status).toBe(200);
    await expectStrangerOut(squatted);
  });

  it("takes the stranger's sessions with it even when resets keep sessions", async () => {
    const squatted = await squat({ emailAndPassword: { revokeSessionsOnPasswordReset: false } });
    await resetByLink(squatted.t);
    await expectStrangerOut(squatted);
  });

  it("stays when the address is verified by the sign-up's verification link, and signs in", async () => {
    const t = await openAuth({ emailVerification: { sendOnSignUp: true } });
    const authenticator = newAuthenticator();
    const signUp = await registerPasskey(new TestBrowser(t.auth), authenticator, {
      query: { email: VICTIM, displayName: "Grace" },
    });
    expect(signUp.status).toBe(200);
    const verified = await new TestBrowser(t.auth).get(mailedLink(t, VICTIM, "/verify-email"));
    expect(verified.status).toBeLessThan(400);
    expect(await t.db.collection("users").findOne({ email: VICTIM })).toMatchObject({ emailVerified: true });
    expect(await passkeyRow(t, authenticator)).not.toBeNull();
    expect((await signInWithPasskey(new TestBrowser(t.auth), authenticator)).status).toBe(200);
    // It stays marked: a later recovery by mail still removes it (docs/passkeys.md).
    await resetByLink(t);
    expect(await passkeyRow(t, authenticator)).toBeNull();
  });
});

describe("a passkey registered once the address was verified", () => {
  it("survives a password reset by link", async () => {
    const t = await openAuth();
    const ada = await signUpUser(t, { email: VICTIM, emailVerified: true });
    const authenticator = newAuthenticator();
    expect((await registerPasskey(ada.browser, authenticator)).status).toBe(200);
    const stored = await passkeyRow(t, authenticator);
    expect(stored).not.toBeNull();
    expect(stored).not.toHaveProperty("registeredUnverified");
    await resetByLink(t);
    expect((await signInWithPasskey(new TestBrowser(t.auth), authenticator)).status).toBe(200);
  });

  it("survives a code sign-in of the verified account", async () => {
    const t = await openAuth(PASSWORDLESS);
    const ada = await signUpUser(t, { email: VICTIM, emailVerified: true });
    const authenticator = newAuthenticator();
    expect((await registerPasskey(ada.browser, authenticator)).status).toBe(200);
    await new TestBrowser(t.auth).post("/email-otp/send-verification-otp", {
      email: VICTIM,
      type: "sign-in",
    });
    const otp = mailedSignIn(t, VICTIM).code;
    expect((await new TestBrowser(t.auth).post("/sign-in/email-otp", { email: VICTIM, otp })).status).toBe(
      200,
    );
    expect((await signInWithPasskey(new TestBrowser(t.auth), authenticator)).status).toBe(200);
  });
});
