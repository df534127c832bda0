import type { AuthOptions } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createCast } from "#test/admin.ts";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Security-hardening issue, finding 2: sign-up and change-password accepted `password`, `12345678`,
 * `password123`. Every path that sets a password now refuses the common and breached ones
 * (password-policy.ts), answering PASSWORD_COMPROMISED and changing nothing.
 */
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery";
const COMPROMISED = {
  code: "PASSWORD_COMPROMISED",
  message: "Password is too common or has appeared in a data breach; choose another",
};
/** From the list, in cases the list does not spell: the check ignores case. */
const COMMON = ["password123", "12345678", "PassWord", "Password123", "QWERTY123", "iloveyou"];

const { t, openAuth } = useTestAuthPerTest();

async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}) {
  await openAuth(overrides);
  const ada = new TestBrowser(t.auth);
  const id = (await signUp(ada, { email: EMAIL, password: PASSWORD })).body.user.id;
  return { ada, userId: new ObjectId(id) };
}

const credentialHash = async (userId: ObjectId) =>
  (await t.db.collection("accounts").findOne({ userId, providerId: "credential" }))?.password;

async function signInStatus(password: string, email = EMAIL): Promise<number> {
  return (await new TestBrowser(t.auth).post("/sign-in/email", { email, password })).status;
}

describe("common and breached passwords are refused wherever a password is set", () => {
  it("sign-up: 400 PASSWORD_COMPROMISED, whatever the case, and no user is stored", async () => {
    await setUp();
    for (const password of COMMON) {
      const res = await signUp(new TestBrowser(t.auth), { email: "bob@example.com", password });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(COMPROMISED);
    }
    expect(await t.db.collection("users").countDocuments()).toBe(1);
    expect(await t.db.collection("accounts").countDocuments()).toBe(1);
  });

  it("reset: refused before the token is spent; the link still works with a better password", async () => {
    const { userId } = await setUp();
    const hash = await credentialHash(userId);
    await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    const link = t.outbox.latestTo(EMAIL)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0] ?? "";
    const token = new URL(link).pathname.split("/").pop();
    const res = await new TestBrowser(t.auth).post("/reset-password", { token, newPassword: "password123" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(COMPROMISED);
    expect(await credentialHash(userId)).toBe(hash);
    expect(await signInStatus(PASSWORD)).toBe(200);
    const retry = await new TestBrowser(t.auth).post("/reset-password", {
      token,
      newPassword: "a new staple",
    });
    expect(retry.status).toBe(200);
  });

  it("change-password: refused, the old password and every session stay", async () => {
    const { ada, userId } = await setUp();
    const hash = await credentialHash(userId);
    const res = await ada.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "Password123",
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(COMPROMISED);
    expect(await credentialHash(userId)).toBe(hash);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(1);
  });

  it("set-password (server only): refused, no credential account is created", async () => {
    const { ada, userId } = await setUp();
    await t.db.collection("accounts").deleteMany({ userId });
    await expect(
      t.auth.api.setPassword({ body: { newPassword: "12345678" }, headers: { cookie: ada.cookieHeader() } }),
    ).rejects.toMatchObject({ ...COMPROMISED, status: 400 });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("admin set-user-password: refused, the user's password and sessions stay", async () => {
    await openAuth();
    const { admin, user } = await createCast(t);
    const userId = new ObjectId(user.id);
    const hash = await credentialHash(userId);
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "iloveyou",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(COMPROMISED);
    expect(await credentialHash(userId)).toBe(hash);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(1);
  });

  it("admin create-user: refused, no user is created", async () => {
    await openAuth();
    const { admin } = await createCast(t);
    const res = await admin.browser.post("/admin/create-user", {
      email: "new@example.com",
      name: "New",
      password: "PASSWORD",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(COMPROMISED);
    expect(await t.db.collection("users").countDocuments({ email: "new@example.com" })).toBe(0);
  });

  it("an uncommon password is accepted (the list is not over-eager)", async () => {
    const { ada } = await setUp();
    const res = await ada.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "plum orbit lantern",
    });
    expect(res.status).toBe(200);
    expect(await signInStatus("plum orbit lantern")).toBe(200);
  });
});

describe("emailAndPassword.isPasswordBreached (an online breach check of the app's)", () => {
  it("is asked about every new password after the list, and its true refuses it", async () => {
    const asked: string[] = [];
    const isPasswordBreached = async (password: string) => {
      asked.push(password);
      return password === "plum orbit lantern";
    };
    const { ada, userId } = await setUp({ emailAndPassword: { isPasswordBreached } });
    const hash = await credentialHash(userId);
    const res = await ada.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "plum orbit lantern",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(COMPROMISED);
    expect(await credentialHash(userId)).toBe(hash);
    // A password the offline list refuses never reaches the hook (no needless network call).
    await signUp(new TestBrowser(t.auth), { email: "bob@example.com", password: "password123" });
    // NFKC, as hashed: the fullwidth letters arrive as ASCII.
    await signUp(new TestBrowser(t.auth), { email: "cy@example.com", password: "ｆｕｌｌｗｉｄｔｈ pass" });
    expect(asked).toEqual([PASSWORD, "plum orbit lantern", "fullwidth pass"]);
  });

  it("a hook that throws is logged and the password accepted (the offline list still applies)", async () => {
    const warned: unknown[] = [];
    await openAuth({
      emailAndPassword: {
        isPasswordBreached: () => {
          throw new Error("breach service down");
        },
      },
      logger: { info: () => {}, warn: (...args: unknown[]) => warned.push(args[0]), error: () => {} },
    });
    expect((await signUp(new TestBrowser(t.auth), { email: EMAIL, password: PASSWORD })).status).toBe(200);
    expect(warned).toEqual(["emailAndPassword.isPasswordBreached failed; password accepted"]);
    const common = await signUp(new TestBrowser(t.auth), {
      email: "bob@example.com",
      password: "password123",
    });
    expect(common.body).toEqual(COMPROMISED);
  });
});
