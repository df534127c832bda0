import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const NEW_PASSWORD = "new staple password";

const { t, openAuth } = useTestAuthPerTest();
let browser: TestBrowser;
let userId: ObjectId;
beforeEach(async () => {
  await openAuth();
  browser = new TestBrowser(t.auth);
  const res = await signUp(browser, { email: EMAIL, password: "correct horse battery" });
  userId = ObjectId.createFromHexString(res.body.user.id);
});

/** Turns the signed-up user into one who signed up through a provider: no credential account. */
async function dropCredentialAccount(): Promise<void> {
  await t.db.collection("accounts").deleteMany({ userId });
}

function setPassword(newPassword: unknown, cookie: string | null = browser.cookieHeader()) {
  return t.auth.api.setPassword({
    // Any shape on purpose: the run-time validation of what untyped callers send is under test.
    body: { newPassword: newPassword as string },
    headers: cookie === null ? {} : { cookie },
  });
}

async function signInStatus(password: string): Promise<number> {
  return (await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password })).status;
}

describe("set-password (server only)", () => {
  it("does not exist over HTTP, even with a session", async () => {
    await dropCredentialAccount();
    const res = await browser.post("/set-password", { newPassword: NEW_PASSWORD });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "NOT_FOUND", message: "Not found" });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("gives a user without a password a credential account they can sign in with", async () => {
    await dropCredentialAccount();
    const result = await setPassword(NEW_PASSWORD);
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ status: true });
    const accounts = await t.db.collection("accounts").find({ userId }).toArray();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ providerId: "credential", accountId: userId.toHexString() });
    expect(accounts[0]?.password).toMatch(/^s1\$/);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("fills in a credential account that has no password", async () => {
    await t.db.collection("accounts").updateMany({ userId }, { $set: { password: null } });
    const result = await setPassword(NEW_PASSWORD);
    expect(result.data).toEqual({ status: true });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(1);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("fills a passwordless credential account through the account update hooks, which may refuse", async () => {
    const seen: string[] = [];
    let refuse = true;
    await openAuth({
      hooks: {
        account: {
          update: {
            before: () => (refuse ? false : undefined),
            after: (account) => void seen.push(String(account.password).slice(0, 3)),
          },
        },
      },
    });
    browser = new TestBrowser(t.auth);
    const res = await signUp(browser, { email: EMAIL, password: "correct horse battery" });
    userId = ObjectId.createFromHexString(res.body.user.id);
    await t.db.collection("accounts").updateMany({ userId }, { $set: { password: null } });
    await expect(setPassword(NEW_PASSWORD)).rejects.toMatchObject({ code: "FAILED_TO_UPDATE_USER" });
    expect((await t.db.collection("accounts").findOne({ userId }))?.password).toBeNull();
    refuse = false;
    expect((await setPassword(NEW_PASSWORD)).status).toBe(200);
    expect(seen).toEqual(["s1$"]);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("refuses a user who already has a password with 400 user already has a password", async () => {
    const before = await t.db.collection("accounts").findOne({ userId });
    await expect(setPassword(NEW_PASSWORD)).rejects.toMatchObject({
      code: "PASSWORD_ALREADY_SET",
      status: 400,
      message: "user already has a password",
    });
    expect((await t.db.collection("accounts").findOne({ userId }))?.password).toBe(before?.password);
    expect(await signInStatus(NEW_PASSWORD)).toBe(401);
  });

  it.each([
    ["Password too short", "PASSWORD_TOO_SHORT", "short"],
    ["Password too long", "PASSWORD_TOO_LONG", "x".repeat(129)],
  ])("refuses with 400 %s and creates nothing", async (message, code, newPassword) => {
    await dropCredentialAccount();
    await expect(setPassword(newPassword)).rejects.toMatchObject({ code, status: 400, message });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("needs a session: 401 without one, and with a forged cookie", async () => {
    await dropCredentialAccount();
    for (const cookie of [null, "tessera.session_token=forged.value"]) {
      await expect(setPassword(NEW_PASSWORD, cookie)).rejects.toMatchObject({
        code: "UNAUTHORIZED",
        status: 401,
      });
    }
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("refuses an object in place of the password with 400", async () => {
    await dropCredentialAccount();
    await expect(setPassword({ $ne: null })).rejects.toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("sets the password once when called concurrently", async () => {
    await dropCredentialAccount();
    const passwords = ["first new password", "second new password", "third new password"];
    const results = await Promise.allSettled(passwords.map((password) => setPassword(password)));
    const won = results.flatMap((result, i) => (result.status === "fulfilled" ? [i] : []));
    expect(won).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ code: "PASSWORD_ALREADY_SET" });
    }
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(1);
    expect(await signInStatus(passwords[won[0]!]!)).toBe(200);
  });
});
