import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const OLD_PASSWORD = "correct horse battery";
const NEW_PASSWORD = "new staple password";

const { t, openAuth } = useTestAuthPerTest();
let browser: TestBrowser;
let userId: ObjectId;
beforeEach(async () => {
  await openAuth();
  browser = new TestBrowser(t.auth);
  const res = await signUp(browser, { email: EMAIL, password: OLD_PASSWORD });
  userId = ObjectId.createFromHexString(res.body.user.id);
});

async function storedHash(): Promise<unknown> {
  return (await t.db.collection("accounts").findOne({ userId, providerId: "credential" }))?.password;
}

async function signIn(password: string): Promise<TestBrowser & { status: number }> {
  const other = new TestBrowser(t.auth);
  const res = await other.post("/sign-in/email", { email: EMAIL, password });
  return Object.assign(other, { status: res.status });
}

async function sessionTokens(): Promise<string[]> {
  const rows = await t.db.collection("sessions").find({ userId }).toArray();
  return rows.map((row) => row.token as string).sort();
}

describe("POST /change-password", () => {
  it("changes the password and keeps every session when not asked to revoke", async () => {
    const other = await signIn(OLD_PASSWORD);
    const tokensBefore = await sessionTokens();
    const hashBefore = await storedHash();
    const res = await browser.post("/change-password", {
      currentPassword: OLD_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: null, user: { id: userId.toHexString(), email: EMAIL } });
    expect(res.headers.getSetCookie().some((line) => line.startsWith(SESSION_COOKIE))).toBe(false);
    expect(await storedHash()).not.toBe(hashBefore);
    expect(await sessionTokens()).toEqual(tokensBefore);
    expect((await other.get("/get-session")).body).not.toBeNull();
    expect((await signIn(OLD_PASSWORD)).status).toBe(401);
    expect((await signIn(NEW_PASSWORD)).status).toBe(200);
  });

  it("with revokeOtherSessions, ends every other session and moves the caller to a new one", async () => {
    const other = await signIn(OLD_PASSWORD);
    const third = await signIn(OLD_PASSWORD);
    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com" });
    const oldCookie = browser.cookies.get(SESSION_COOKIE);
    const oldTokens = await sessionTokens();
    expect(oldTokens).toHaveLength(3);
    const res = await browser.post<{ token: string; user: { id: string } }>("/change-password", {
      currentPassword: OLD_PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.user.id).toBe(userId.toHexString());
    expect(oldTokens).not.toContain(res.body.token);
    expect(await sessionTokens()).toEqual([res.body.token]);
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(oldCookie);
    const mine = await browser.get<{ session: { token: string } }>("/get-session");
    expect(mine.body.session.token).toBe(res.body.token);
    expect((await other.get("/get-session")).body).toBeNull();
    expect((await third.get("/get-session")).body).toBeNull();
    expect((await bob.get("/get-session")).body).not.toBeNull();
    const replay = new TestBrowser(t.auth);
    replay.cookies.set(SESSION_COOKIE, oldCookie!);
    expect((await replay.get("/get-session")).body).toBeNull();
  });

  it("refuses a wrong current password with 400 Invalid password and changes nothing", async () => {
    const hashBefore = await storedHash();
    const tokensBefore = await sessionTokens();
    for (const currentPassword of ["wrong password!", "x".repeat(10_000)]) {
      const res = await browser.post("/change-password", {
        currentPassword,
        newPassword: NEW_PASSWORD,
        revokeOtherSessions: true,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    }
    expect(await storedHash()).toBe(hashBefore);
    expect(await sessionTokens()).toEqual(tokensBefore);
  });

  it.each([
    ["Password too short", "PASSWORD_TOO_SHORT", "short"],
    ["Password too long", "PASSWORD_TOO_LONG", "x".repeat(129)],
  ])("refuses a new password with 400 %s", async (message, code, newPassword) => {
    const hashBefore = await storedHash();
    const res = await browser.post("/change-password", { currentPassword: OLD_PASSWORD, newPassword });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code, message });
    expect(await storedHash()).toBe(hashBefore);
    expect((await signIn(OLD_PASSWORD)).status).toBe(200);
  });

  it("answers 400 Credential account not found for a user without a password", async () => {
    await t.db.collection("accounts").deleteMany({ userId });
    const res = await browser.post("/change-password", {
      currentPassword: OLD_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "CREDENTIAL_ACCOUNT_NOT_FOUND",
      message: "Credential account not found",
    });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
  });

  it("answers 401 without a session", async () => {
    const hashBefore = await storedHash();
    const res = await new TestBrowser(t.auth).post("/change-password", {
      currentPassword: OLD_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    expect(await storedHash()).toBe(hashBefore);
  });

  it("refuses a cookie-bearing request from an untrusted origin with 403", async () => {
    const hashBefore = await storedHash();
    const res = await browser.post(
      "/change-password",
      { currentPassword: OLD_PASSWORD, newPassword: NEW_PASSWORD },
      { headers: { origin: "https://evil.example.com" } },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect(await storedHash()).toBe(hashBefore);
  });

  it("refuses objects and missing fields with 400", async () => {
    const hashBefore = await storedHash();
    for (const body of [
      { currentPassword: { $ne: null }, newPassword: NEW_PASSWORD },
      { currentPassword: OLD_PASSWORD, newPassword: { $gt: "" } },
      { newPassword: NEW_PASSWORD },
      { currentPassword: OLD_PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: "true" },
    ]) {
      const res = await browser.post("/change-password", body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    }
    expect(await storedHash()).toBe(hashBefore);
  });
});

describe("POST /change-password with the cookie cache on", () => {
  it("reads the session from the database: a revoked session cannot change the password", async () => {
    await openAuth({ session: { cookieCache: { enabled: true } } });
    browser = new TestBrowser(t.auth);
    const res = await signUp(browser, { email: EMAIL, password: OLD_PASSWORD });
    userId = ObjectId.createFromHexString(res.body.user.id);
    expect(browser.cookies.has("tessera.session_data")).toBe(true);
    await t.db.collection("sessions").deleteMany({ userId });
    const hashBefore = await storedHash();
    const change = await browser.post("/change-password", {
      currentPassword: OLD_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(change.status).toBe(401);
    expect(await storedHash()).toBe(hashBefore);
  });
});
