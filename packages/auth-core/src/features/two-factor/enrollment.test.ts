import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import {
  CHALLENGE_COOKIE,
  codeAt,
  EMAIL,
  ERR,
  PASSWORD,
  rowsLike,
  storedText,
  totpFromURI,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";
import { decryptString } from "../../crypto/index.ts";

const twoFactor = useTwoFactorFixtures();

const freshTestAuth = useFreshTestAuth();
const userOf = (t: TestAuth, id: ObjectId) => t.db.collection("users").findOne({ _id: id });
const twoFactorOf = (t: TestAuth, id: ObjectId) => t.db.collection("twoFactors").findOne({ userId: id });

describe("POST /two-factor/enable", () => {
  it("answers a TOTP URI and 10 backup codes, stores them encrypted, and does not turn two-factor on yet", async () => {
    const { t, ada, userId, secret, backupCodes } = await twoFactor.pending();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    expect(new Set(backupCodes).size).toBe(10);
    const doc = await twoFactorOf(t, userId);
    expect(doc).toMatchObject({ userId, verified: false });
    // Encrypted at rest (docs/security.md): neither the secret nor any code appears in the database.
    const stored = await storedText(t);
    expect(stored).not.toContain(secret);
    for (const code of backupCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    expect(decryptString(doc!.secret, "test-secret-0123456789abcdef0123456789")).toBe(secret);
    expect((await userOf(t, userId))?.twoFactorEnabled).not.toBe(true);
    // Pending only: a password sign-in still gets a session.
    const other = new TestBrowser(t.auth);
    const res = await other.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(other.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(ada.cookies.has(CHALLENGE_COOKIE)).toBe(false);
  });

  it("builds the URI with the app name as issuer, the email as account, SHA-1, 6 digits, 30 s", async () => {
    const { ada } = await twoFactor.pending({ appName: "Acme" });
    const res = await ada.post<{ totpURI: string }>("/two-factor/get-totp-uri", { password: PASSWORD });
    const uri = new URL(res.body.totpURI);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Acme:ada@example.com");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: totpFromURI(res.body.totpURI),
      issuer: "Acme",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });

  it("refuses a wrong or missing password and an anonymous caller, writing nothing", async () => {
    const t = await freshTestAuth();
    const ada = new TestBrowser(t.auth);
    await signUp(ada, { email: EMAIL, password: PASSWORD });
    const wrong = await ada.post("/two-factor/enable", { password: "not the password" });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: ERR.INVALID_PASSWORD });
    const missing = await ada.post("/two-factor/enable", {});
    expect(missing.status).toBe(400);
    expect((missing.body as { code: string }).code).toBe("VALIDATION_ERROR");
    const anon = await new TestBrowser(t.auth).post("/two-factor/enable", { password: PASSWORD });
    expect({ status: anon.status, body: anon.body }).toEqual({ status: 401, body: ERR.UNAUTHORIZED });
    expect(await t.db.collection("twoFactors").countDocuments()).toBe(0);
  });

  it("refuses a user without a password account (credential account not found)", async () => {
    const t = await freshTestAuth();
    const ada = new TestBrowser(t.auth);
    const res = await signUp(ada, { email: EMAIL, password: PASSWORD });
    await t.db.collection("accounts").deleteMany({ userId: new ObjectId(res.body.user.id) });
    const enable = await ada.post("/two-factor/enable", { password: PASSWORD });
    expect({ status: enable.status, body: enable.body }).toEqual({ status: 400, body: ERR.NO_CREDENTIAL });
    expect(await t.db.collection("twoFactors").countDocuments()).toBe(0);
  });

  it("replaces a pending enrollment, but refuses while two-factor is on (the active secret stays)", async () => {
    const { t, ada, userId, secret } = await twoFactor.pending();
    const again = await ada.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
    expect(again.status).toBe(200);
    const replaced = totpFromURI(again.body.totpURI);
    expect(replaced).not.toBe(secret);
    expect(await t.db.collection("twoFactors").countDocuments({ userId })).toBe(1);
    // The first secret no longer confirms anything; the second does.
    const old = await ada.post("/two-factor/verify-totp", { code: codeAt(secret, t.now()) });
    expect(old.status).toBe(401);
    t.advance(30);
    expect((await ada.post("/two-factor/verify-totp", { code: codeAt(replaced, t.now()) })).status).toBe(200);
    const before = await twoFactorOf(t, userId);
    const refused = await ada.post("/two-factor/enable", { password: PASSWORD });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: ERR.ALREADY_ENABLED,
    });
    expect(await twoFactorOf(t, userId)).toEqual(before);
  });
});

describe("POST /two-factor/verify-totp with a session (enrollment)", () => {
  it("turns two-factor on with a first valid code and answers the caller's session and user", async () => {
    const { t, ada, userId, code } = await twoFactor.pending();
    const token = (await ada.get<{ session: { token: string } }>("/get-session")).body.session.token;
    const res = await ada.post<{ token: string; user: { id: string } }>("/two-factor/verify-totp", {
      code: code(),
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toBe(token);
    expect(res.body.user.id).toBe(userId.toHexString());
    expect((await userOf(t, userId))?.twoFactorEnabled).toBe(true);
    expect((await twoFactorOf(t, userId))?.verified).toBe(true);
  });

  it("refuses a wrong code, a malformed code and a user without enrollment, changing nothing", async () => {
    const { t, ada, userId, code } = await twoFactor.pending();
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, "0");
    const adjacent = [code(-1), code(1)];
    const bad = adjacent.includes(wrong) ? "000000" : wrong;
    const res = await ada.post("/two-factor/verify-totp", { code: bad });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_CODE });
    for (const malformed of ["12345", "1234567", "abcdef", "12345６"]) {
      const answer = await ada.post("/two-factor/verify-totp", { code: malformed });
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: ERR.INVALID_CODE });
    }
    const typed = await ada.post<{ code: string }>("/two-factor/verify-totp", { code: 123456 });
    expect([typed.status, typed.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect((await userOf(t, userId))?.twoFactorEnabled).not.toBe(true);
    expect((await twoFactorOf(t, userId))?.verified).toBe(false);

    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com", password: PASSWORD });
    const none = await bob.post("/two-factor/verify-totp", { code: "123456" });
    expect({ status: none.status, body: none.body }).toEqual({ status: 400, body: ERR.TOTP_NOT_ENABLED });
  });

  it("with trustDevice, the enrolling device is trusted: its next sign-in skips the challenge", async () => {
    const { t, ada, userId, code } = await twoFactor.pending();
    const res = await ada.post("/two-factor/verify-totp", { code: code(), trustDevice: true });
    expect(res.status).toBe(200);
    expect((await userOf(t, userId))?.twoFactorEnabled).toBe(true);
    expect(ada.cookies.has("tessera.trust_device")).toBe(true);
    await ada.post("/sign-out", {});
    const signIn = await ada.post<{ token?: string }>("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(typeof signIn.body.token).toBe("string");
    expect(ada.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it("a user update hook that refuses leaves two-factor off (Failed to update user)", async () => {
    const { t, ada, userId, code } = await twoFactor.pending({
      hooks: { user: { update: { before: () => false } } },
    });
    const res = await ada.post("/two-factor/verify-totp", { code: code() });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { code: "FAILED_TO_UPDATE_USER", message: "Failed to update user" },
    });
    expect((await userOf(t, userId))?.twoFactorEnabled).not.toBe(true);
    const other = new TestBrowser(t.auth);
    await other.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(other.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it("without a session or challenge answers the invalid-cookie error", async () => {
    const t = await freshTestAuth();
    const res = await new TestBrowser(t.auth).post("/two-factor/verify-totp", { code: "123456" });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
  });
});

describe("POST /two-factor/get-totp-uri", () => {
  it("answers the stored secret's URI with the password, refuses without it or without enrollment", async () => {
    const { t, ada, secret } = await twoFactor.pending();
    const res = await ada.post<{ totpURI: string }>("/two-factor/get-totp-uri", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(totpFromURI(res.body.totpURI)).toBe(secret);
    const wrong = await ada.post("/two-factor/get-totp-uri", { password: "nope nope nope" });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: ERR.INVALID_PASSWORD });
    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com", password: PASSWORD });
    const none = await bob.post("/two-factor/get-totp-uri", { password: PASSWORD });
    expect({ status: none.status, body: none.body }).toEqual({ status: 400, body: ERR.TOTP_NOT_ENABLED });
  });
});

describe("POST /two-factor/generate-backup-codes", () => {
  it("replaces the set: new codes answered, stored encrypted, old markers gone", async () => {
    const { t, ada, userId, backupCodes } = await twoFactor.enrolled();
    const before = await twoFactorOf(t, userId);
    const res = await ada.post<{ status: boolean; backupCodes: string[] }>(
      "/two-factor/generate-backup-codes",
      { password: PASSWORD },
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.backupCodes).toHaveLength(10);
    expect(res.body.backupCodes.some((code) => backupCodes.includes(code))).toBe(false);
    const after = await twoFactorOf(t, userId);
    expect(after?.backupCodes).not.toBe(before?.backupCodes);
    expect(after?.backupCodesBatch).not.toBe(before?.backupCodesBatch);
    expect(after?.secret).toBe(before?.secret);
    const stored = await storedText(t);
    for (const code of res.body.backupCodes) expect(stored).not.toContain(code.replace("-", ""));
  });

  it("refuses a wrong password and a user whose two-factor is not on, changing nothing", async () => {
    const { t, ada, userId } = await twoFactor.pending();
    const pending = await ada.post("/two-factor/generate-backup-codes", { password: PASSWORD });
    expect({ status: pending.status, body: pending.body }).toEqual({ status: 400, body: ERR.NOT_ENABLED });
    const before = await twoFactorOf(t, userId);
    const wrong = await ada.post("/two-factor/generate-backup-codes", { password: "wrong wrong" });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: ERR.INVALID_PASSWORD });
    expect(await twoFactorOf(t, userId)).toEqual(before);
  });
});

describe("POST /two-factor/disable", () => {
  it("turns two-factor off: flag, document, trusted devices and backup markers are gone", async () => {
    const { t, ada, userId } = await twoFactor.enrolled();
    await t.db.collection("verifications").insertOne({
      identifier: `two-factor-trust:${userId.toHexString()}:${"x".repeat(32)}`,
      value: userId.toHexString(),
      expiresAt: new Date(t.now().getTime() + 86400_000),
      createdAt: t.now(),
      updatedAt: t.now(),
    });
    const wrong = await ada.post("/two-factor/disable", { password: "wrong wrong" });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: ERR.INVALID_PASSWORD });
    expect((await userOf(t, userId))?.twoFactorEnabled).toBe(true);

    const res = await ada.post("/two-factor/disable", { password: PASSWORD });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: true } });
    expect((await userOf(t, userId))?.twoFactorEnabled).toBe(false);
    expect(await twoFactorOf(t, userId)).toBeNull();
    expect(await rowsLike(t, "two-factor-trust:")).toEqual([]);
    // Sign-in is no longer gated.
    const other = new TestBrowser(t.auth);
    await other.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(other.cookies.has(SESSION_COOKIE)).toBe(true);

    const again = await ada.post("/two-factor/disable", { password: PASSWORD });
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: ERR.NOT_ENABLED });
  });

  it("also removes a pending enrollment, and refuses an anonymous caller", async () => {
    const { t, ada, userId } = await twoFactor.pending();
    const anon = await new TestBrowser(t.auth).post("/two-factor/disable", { password: PASSWORD });
    expect({ status: anon.status, body: anon.body }).toEqual({ status: 401, body: ERR.UNAUTHORIZED });
    expect(await twoFactorOf(t, userId)).not.toBeNull();
    expect((await ada.post("/two-factor/disable", { password: PASSWORD })).status).toBe(200);
    expect(await twoFactorOf(t, userId)).toBeNull();
  });
});
