import type { AuthOptions } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Issue 27, items 6 and 7 (docs/security.md "Common and breached passwords", "Passwords that name
 * the account"): whitespace padding no longer slips a common password past the list, and a password
 * that is the account's address, its local part or the app's name is refused — on every path that
 * sets a password, answering 400 and changing nothing.
 */
const EMAIL = "lovelace.ada@example.com";
const PASSWORD = "correct horse battery";
const APP_NAME = "Acme Portal";
const COMPROMISED = {
  code: "PASSWORD_COMPROMISED",
  message: "Password is too common or has appeared in a data breach; choose another",
};
const CONTEXT = {
  code: "PASSWORD_CONTEXT_SPECIFIC",
  message: "Choose a password that is not your email address or the app's name",
};
/** "password1" (in the list) padded with every kind of Unicode space and invisible character. */
const PADDED_COMMON = [
  " password1",
  "password1 ",
  "\tpassword1",
  "password1\n",
  "\u00a0password1",
  "password1\u202f",
  "\u2003password1",
  "\u3000password1",
  "\u200bpassword1",
  "\ufeffpassword1\u00a0",
];
/** The account's words as a user might type them. */
const CONTEXT_WORDS = [
  EMAIL,
  "LoveLace.Ada@Example.com",
  " lovelace.ada",
  "lovelace.ada\u00a0",
  APP_NAME,
  "acmeportal",
];

const { t, openAuth } = useTestAuthPerTest();

async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}) {
  await openAuth({ appName: APP_NAME, ...overrides });
  const ada = new TestBrowser(t.auth);
  const id = (await signUp(ada, { email: EMAIL, password: PASSWORD })).body.user.id;
  return { ada, userId: new ObjectId(id) };
}

const credentialHash = async (userId: ObjectId) =>
  (await t.db.collection("accounts").findOne({ userId, providerId: "credential" }))?.password;

const signInStatus = async (password: string) =>
  (await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password })).status;

describe("a common password padded with whitespace is still common", () => {
  it("sign-up refuses every padding, and no user is stored", async () => {
    await setUp();
    for (const password of PADDED_COMMON) {
      const res = await signUp(new TestBrowser(t.auth), { email: "bob.builder@example.com", password });
      expect({ password, status: res.status, body: res.body }).toEqual({
        password,
        status: 400,
        body: COMPROMISED,
      });
    }
    expect(await t.db.collection("users").countDocuments()).toBe(1);
    expect(await t.db.collection("accounts").countDocuments()).toBe(1);
  });

  it("change-password refuses them too; what is hashed is what was typed", async () => {
    const { ada, userId } = await setUp();
    const hash = await credentialHash(userId);
    for (const newPassword of PADDED_COMMON) {
      const res = await ada.post("/change-password", { currentPassword: PASSWORD, newPassword });
      expect(res.body).toEqual(COMPROMISED);
    }
    expect(await credentialHash(userId)).toBe(hash);
    // An uncommon password with a leading space is stored as typed: without the space it fails.
    const spaced = " plum orbit lantern";
    expect(
      (await ada.post("/change-password", { currentPassword: PASSWORD, newPassword: spaced })).status,
    ).toBe(200);
    expect(await signInStatus(spaced)).toBe(200);
    expect(await signInStatus("plum orbit lantern")).toBe(401);
  });
});

describe("a password that is the account's address or the app's name is refused", () => {
  it("sign-up: each word, whatever its case and padding; no user is stored", async () => {
    await openAuth({ appName: APP_NAME });
    for (const password of CONTEXT_WORDS) {
      const res = await signUp(new TestBrowser(t.auth), { email: EMAIL, password });
      expect({ password, status: res.status, body: res.body }).toEqual({
        password,
        status: 400,
        body: CONTEXT,
      });
    }
    // A +tag does not hide the local part.
    const tagged = await signUp(new TestBrowser(t.auth), {
      email: "lovelace.ada+acme@example.com",
      password: "Lovelace.Ada",
    });
    expect(tagged.body).toEqual(CONTEXT);
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    // Containing a word is not being it.
    expect(
      (await signUp(new TestBrowser(t.auth), { email: EMAIL, password: "lovelace.ada 1815" })).status,
    ).toBe(200);
  });

  it("change-password: refused, the hash and the sessions stay", async () => {
    const { ada, userId } = await setUp();
    const hash = await credentialHash(userId);
    for (const newPassword of CONTEXT_WORDS) {
      const res = await ada.post("/change-password", {
        currentPassword: PASSWORD,
        newPassword,
        revokeOtherSessions: true,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CONTEXT);
    }
    expect(await credentialHash(userId)).toBe(hash);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(1);
  });

  it("reset-password: refused before the token is spent; the link then works with a good password", async () => {
    const { userId } = await setUp();
    const hash = await credentialHash(userId);
    await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    const link = t.outbox.latestTo(EMAIL)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0] ?? "";
    const token = new URL(link).pathname.split("/").pop();
    for (const newPassword of [EMAIL, "lovelace.ada", "ACME PORTAL"]) {
      const res = await new TestBrowser(t.auth).post("/reset-password", { token, newPassword });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CONTEXT);
    }
    expect(await credentialHash(userId)).toBe(hash);
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^reset-password:/ })).toBe(1);
    const retry = await new TestBrowser(t.auth).post("/reset-password", {
      token,
      newPassword: "a new staple",
    });
    expect(retry.status).toBe(200);
    expect(await signInStatus("a new staple")).toBe(200);
  });

  it("a reset token that names nobody is still answered invalid token", async () => {
    await setUp();
    const res = await new TestBrowser(t.auth).post("/reset-password", {
      token: "A".repeat(24),
      newPassword: EMAIL,
    });
    expect(res.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
  });

  it("set-password (server only): refused, no credential account is created", async () => {
    const { ada, userId } = await setUp();
    await t.db.collection("accounts").deleteMany({ userId });
    await expect(
      t.auth.api.setPassword({
        body: { newPassword: "lovelace.ada" },
        headers: { cookie: ada.cookieHeader() },
      }),
    ).rejects.toMatchObject({ ...CONTEXT, status: 400 });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("admin set-user-password: the target's address is refused, the password and sessions stay", async () => {
    const { userId } = await setUp();
    const admin = await signUpPerson(t, "admin", "admin");
    const hash = await credentialHash(userId);
    for (const newPassword of [EMAIL, "lovelace.ada", APP_NAME]) {
      const res = await admin.browser.post("/admin/set-user-password", {
        userId: userId.toHexString(),
        newPassword,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CONTEXT);
    }
    expect(await credentialHash(userId)).toBe(hash);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(1);
  });

  it("admin create-user: the new address is refused, no user is created", async () => {
    await openAuth({ appName: APP_NAME });
    const admin = await signUpPerson(t, "admin", "admin");
    for (const password of ["grace.hopper@example.com", "Grace.Hopper", " acme portal"]) {
      const res = await admin.browser.post("/admin/create-user", {
        email: "grace.hopper@example.com",
        name: "Grace",
        password,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CONTEXT);
    }
    expect(await t.db.collection("users").countDocuments({ email: "grace.hopper@example.com" })).toBe(0);
  });

  it("the default app name counts too", async () => {
    await openAuth();
    // Long enough with its padding (the length rule counts what was typed), and still the name.
    const res = await signUp(new TestBrowser(t.auth), { email: EMAIL, password: "  TESSERA  " });
    expect(res.body).toEqual(CONTEXT);
    const padded = await signUp(new TestBrowser(t.auth), { email: EMAIL, password: "t e s s e r a" });
    expect(padded.body).toEqual(CONTEXT);
  });
});
