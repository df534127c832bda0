import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import {
  newAuthenticator,
  PASSKEY_ERR,
  registerOptions,
  registerPasskey,
  signInWithPasskey,
} from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Passkey-first sign-up: an address (and a name) and a passkey make an account, with no password
 * ever; the same creation, rules and mails as sign-up/email.
 */
const openAuth = useFreshTestAuth();
const GRACE = { email: "grace@example.com", displayName: "Grace Hopper" };

const rowsOf = async (t: TestAuth) => ({
  users: await t.db.collection("users").countDocuments({}),
  accounts: await t.db.collection("accounts").countDocuments({}),
  passkeys: await t.db.collection("passkeys").countDocuments({}),
});

describe("passkey-first sign-up", () => {
  it("creates the user, the passkey and a session in one go, and no password", async () => {
    const t = await openAuth();
    const browser = new TestBrowser(t.auth);
    const authenticator = newAuthenticator();
    const res = await registerPasskey(browser, authenticator, { query: GRACE, name: "Grace's laptop" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Grace's laptop",
      credentialID: authenticator.credentialID,
      user: { email: "grace@example.com", name: "Grace Hopper", emailVerified: false },
      session: { userId: res.body.user.id },
    });
    expect(res.body.userId).toBe(res.body.user.id);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await rowsOf(t)).toEqual({ users: 1, accounts: 0, passkeys: 1 });
    // The address is claimed as by any sign-up: the same address cannot sign up with a password.
    const again = await new TestBrowser(t.auth).post("/sign-up/email", {
      email: "grace@example.com",
      name: "Not Grace",
      password: "correct horse battery",
    });
    expect(again.status).toBe(422);
    // The passkey signs her in later.
    const later = await signInWithPasskey(new TestBrowser(t.auth), authenticator);
    expect(later.status).toBe(200);
    expect(later.body.user.id).toBe(res.body.user.id);
  });

  it("signs in whatever emailAndPassword.autoSignIn says: that option is the password sign-up's (docs/passkeys.md)", async () => {
    const t = await openAuth({ emailAndPassword: { autoSignIn: false } });
    const browser = new TestBrowser(t.auth);
    const res = await registerPasskey(browser, newAuthenticator(), { query: GRACE });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ session: { userId: res.body.user.id } });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it("with verification required: no session, the verification mail, and the passkey signs in once verified", async () => {
    const t = await openAuth({ emailAndPassword: { requireEmailVerification: true } });
    const browser = new TestBrowser(t.auth);
    const authenticator = newAuthenticator();
    const res = await registerPasskey(browser, authenticator, {
      query: { ...GRACE, callbackURL: "/welcome" },
    });
    expect(res.status).toBe(200);
    expect(res.body.session).toBeNull();
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    const mails = t.outbox.messages();
    expect(mails.map((mail) => [mail.to, mail.kind])).toEqual([["grace@example.com", "verify-email"]]);

    const early = await signInWithPasskey(new TestBrowser(t.auth), authenticator);
    expect(early.status).toBe(403);
    expect(early.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(await t.db.collection("sessions").countDocuments({})).toBe(0);

    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(res.body.user.id) }, { $set: { emailVerified: true } });
    const verified = await signInWithPasskey(new TestBrowser(t.auth), authenticator);
    expect(verified.status).toBe(200);
  });

  it("for a taken address with verification required answers as for a new one, stores and sends nothing", async () => {
    const t = await openAuth({ emailAndPassword: { requireEmailVerification: true } });
    await t.auth.api.signUpEmail({
      body: { email: "grace@example.com", name: "Grace", password: "correct horse battery" },
    });
    const before = await rowsOf(t);
    const sent = t.outbox.messages().length;
    const res = await registerPasskey(new TestBrowser(t.auth), newAuthenticator(), { query: GRACE });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      session: null,
      user: { email: "grace@example.com", emailVerified: false },
    });
    expect(await rowsOf(t)).toEqual(before);
    expect(t.outbox.messages()).toHaveLength(sent);
  });

  it("for a taken address without verification answers 422 and stores nothing", async () => {
    const t = await openAuth();
    await signUpUser(t, { email: "grace@example.com" });
    const before = await rowsOf(t);
    const res = await registerPasskey(new TestBrowser(t.auth), newAuthenticator(), { query: GRACE });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    expect(await rowsOf(t)).toEqual(before);
  });

  it("with a credential already registered answers 400 and leaves no user behind", async () => {
    const t = await openAuth();
    const ada = await signUpUser(t, { email: "ada@example.com" });
    const shared = newAuthenticator();
    await registerPasskey(ada.browser, shared);
    const before = await rowsOf(t);
    const res = await registerPasskey(new TestBrowser(t.auth), shared, { query: GRACE });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PASSKEY_ERR.ALREADY_REGISTERED);
    expect(await rowsOf(t)).toEqual(before);
    expect(await t.db.collection("emailClaims").countDocuments({ _id: "grace@example.com" as never })).toBe(
      0,
    );
  });

  it("refuses a malformed address and, when the app turns it off, any sign-up", async () => {
    const t = await openAuth();
    const bad = await registerOptions(new TestBrowser(t.auth), { email: "not an address" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });

    const closed = await openAuth({ passkey: { disableSignUp: true } });
    const refused = await registerOptions(new TestBrowser(closed.auth), GRACE);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(PASSKEY_ERR.SESSION_REQUIRED);
    expect(await rowsOf(closed)).toEqual({ users: 0, accounts: 0, passkeys: 0 });
  });

  it("stores the language the sign-up asked for", async () => {
    const t = await openAuth();
    const res = await registerPasskey(new TestBrowser(t.auth), newAuthenticator(), {
      query: { ...GRACE, language: "de-AT" },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ language: "GERMAN" });
    expect(await t.db.collection("users").findOne({ email: "grace@example.com" })).toMatchObject({
      language: "GERMAN",
    });
  });

  it("keeps the address the options were asked for: the answer cannot change it", async () => {
    const t = await openAuth();
    const browser = new TestBrowser(t.auth);
    const options = await registerOptions(browser, GRACE);
    expect(options.body.user).toMatchObject({ name: "grace@example.com", displayName: "Grace Hopper" });
    const response = newAuthenticator().createCredential(options.body);
    const res = await browser.post("/passkey/verify-registration", {
      response,
      email: "mallory@example.com",
    });
    expect(res.status).toBe(400);
    expect(await rowsOf(t)).toEqual({ users: 0, accounts: 0, passkeys: 0 });
  });
});

describe("passkey-first sign-ups from one address", () => {
  it("are limited as /sign-up is: the fourth in 10 seconds answers 429 and creates nobody", async () => {
    const t = await openAuth({ rateLimit: { enabled: true } });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      const res = await registerPasskey(new TestBrowser(t.auth), newAuthenticator(), {
        query: { email: `user${index}@example.com` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await rowsOf(t)).toMatchObject({ users: 3, passkeys: 3 });
  });
});
