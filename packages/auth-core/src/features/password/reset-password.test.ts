import type { AuthOptions } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { credentialHashOf, resetRows } from "#test/stored-rows.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { resetPasswordIdentifier } from "./rules.ts";

const EMAIL = "ada@example.com";
const OLD_PASSWORD = "correct horse battery";
const NEW_PASSWORD = "new staple password";
const RESET_ANSWER = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
};
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

const { t, openAuth } = useTestAuthPerTest();

/** A fresh instance with one signed-up user; returns that user's id. */
async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}): Promise<string> {
  await openAuth(overrides);
  const res = await signUp(new TestBrowser(t.auth), { email: EMAIL, password: OLD_PASSWORD });
  return res.body.user.id;
}

function storedHash(): Promise<unknown> {
  return credentialHashOf(t.db, EMAIL);
}

/** Requests a reset and returns the token from the link in the mail. */
async function requestToken(redirectTo?: string): Promise<string> {
  const res = await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL, redirectTo });
  expect(res.status).toBe(200);
  const link = linkInMail();
  return new URL(link).pathname.split("/").pop()!;
}

function linkInMail(): string {
  const mail = t.outbox.latestTo(EMAIL);
  const link = mail?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0];
  if (!link) throw new Error("no reset link in the outbox");
  return link;
}

async function signInStatus(password: string): Promise<number> {
  const res = await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password });
  return res.status;
}

describe("request a password reset", () => {
  it("stores a 24-char token for the user and mails a link to it", async () => {
    const userId = await setUp();
    const before = t.now().getTime();
    const res = await new TestBrowser(t.auth).post("/request-password-reset", { email: "  ADA@example.com" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(RESET_ANSWER);
    const mail = t.outbox.latestTo(EMAIL);
    expect(mail?.kind).toBe("reset-password");
    const link = linkInMail();
    expect(link).toMatch(
      /^http:\/\/localhost:3000\/api\/auth\/reset-password\/[A-Za-z0-9]{24}\?callbackURL=%2F$/,
    );
    const token = new URL(link).pathname.split("/").pop();
    const rows = await resetRows(t.db);
    expect(rows).toHaveLength(1);
    // docs/security.md: the row is keyed by the token's hash; the token itself is stored nowhere.
    expect(rows[0]?.identifier).toBe(resetPasswordIdentifier(token ?? ""));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]?.value).toBe(userId);
    const lifetime = (rows[0]!.expiresAt as Date).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(3600_000);
    expect(lifetime).toBeLessThan(3610_000);
  });

  it("answers /forget-password the same way", async () => {
    await setUp();
    const res = await new TestBrowser(t.auth).post("/forget-password", { email: EMAIL });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(RESET_ANSWER);
    expect(t.outbox.latestTo(EMAIL)?.kind).toBe("reset-password");
    expect(await resetRows(t.db)).toHaveLength(1);
  });

  it("answers an unknown email exactly like a known one, and sends and stores nothing usable", async () => {
    await setUp();
    const browser = new TestBrowser(t.auth);
    const known = await browser.post("/request-password-reset", { email: EMAIL });
    const mailsAfterKnown = t.outbox.messages().length;
    for (const path of ["/request-password-reset", "/forget-password"]) {
      const unknown = await browser.post(path, { email: "nobody@example.com" });
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.outbox.messages()).toHaveLength(mailsAfterKnown);
    expect(t.outbox.latestTo("nobody@example.com")).toBeNull();
    // Unknown addresses write an inert row (same commands as a known one, docs/security.md):
    // expired on arrival, naming no user, so no token of it resets anything.
    const rows = await resetRows(t.db);
    const live = rows.filter((row) => row.expiresAt > t.now());
    expect(live).toHaveLength(1);
    expect(rows.filter((row) => row.expiresAt <= t.now()).map((row) => row.value)).toEqual(["", ""]);
  });

  it("puts a trusted redirectTo into the link as its callbackURL", async () => {
    await setUp();
    await requestToken("/account/reset?lang=en");
    expect(new URL(linkInMail()).searchParams.get("callbackURL")).toBe("/account/reset?lang=en");
  });

  it("refuses an untrusted redirectTo with 403 and sends nothing", async () => {
    await setUp();
    const res = await new TestBrowser(t.auth).post("/request-password-reset", {
      email: EMAIL,
      redirectTo: "https://evil.example.com/steal",
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_REDIRECT_URL", message: "Invalid redirectURL" });
    expect(t.outbox.latestTo(EMAIL)?.kind).not.toBe("reset-password");
    expect(await resetRows(t.db)).toHaveLength(0);
  });

  it.each([["not-an-email"], [""]])("refuses the invalid email %j with 400 Invalid email", async (email) => {
    await setUp();
    const res = await new TestBrowser(t.auth).post("/request-password-reset", { email });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    expect(await resetRows(t.db)).toHaveLength(0);
  });

  it("refuses an email given as an object or a list, storing and sending nothing", async () => {
    await setUp();
    for (const email of [{ $ne: null }, [EMAIL, "other@example.com"]]) {
      const res = await new TestBrowser(t.auth).post("/forget-password", { email });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    expect(t.outbox.messages().filter((mail) => mail.kind === "reset-password")).toHaveLength(0);
    expect(await resetRows(t.db)).toHaveLength(0);
  });

  it.each([
    ["resetPasswordEnabled is false", { resetPasswordEnabled: false }],
    ["email and password is off", { enabled: false }],
  ])("answers 400 Reset password isn't enabled when %s", async (_label, emailAndPassword) => {
    await openAuth({ emailAndPassword });
    await t.db.collection("users").insertOne({ email: EMAIL, name: "Ada", emailVerified: false });
    for (const path of ["/request-password-reset", "/forget-password"]) {
      const res = await new TestBrowser(t.auth).post(path, { email: EMAIL });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "RESET_PASSWORD_DISABLED", message: "Reset password isn't enabled" });
    }
    expect(t.outbox.messages()).toHaveLength(0);
    expect(await resetRows(t.db)).toHaveLength(0);
  });

  it("hands the mail to the sendResetPassword hook instead of the mailer", async () => {
    const sent: { user: { id: string; email: string }; url: string; token: string }[] = [];
    const userId = await setUp({ mail: { sendResetPassword: (data) => void sent.push(data) } });
    const res = await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    expect(res.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.user).toEqual({ id: userId, email: EMAIL, name: "Ada Lovelace" });
    expect(sent[0]?.token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(sent[0]?.url).toBe(
      `http://localhost:3000/api/auth/reset-password/${sent[0]?.token}?callbackURL=%2F`,
    );
    expect(t.outbox.messages().filter((mail) => mail.kind === "reset-password")).toHaveLength(0);
  });

  it("still answers 200 when the mail fails (a failure must not reveal the account), and logs it", async () => {
    const logged: string[] = [];
    await setUp({
      mail: { sendResetPassword: () => Promise.reject(new Error("smtp down")) },
      logger: { info: () => {}, warn: () => {}, error: (message) => void logged.push(message) },
    });
    const res = await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(RESET_ANSWER);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged).toEqual(["reset-password mail failed"]);
  });
});

describe("GET /reset-password/{token}", () => {
  it("redirects to the callback with the token, keeping its query, without consuming the token", async () => {
    await setUp();
    const token = await requestToken();
    const res = await new TestBrowser(t.auth).get(
      `/reset-password/${token}?callbackURL=${encodeURIComponent("/reset?lang=en")}`,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/reset?lang=en&token=${token}`);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await resetRows(t.db)).toHaveLength(1);
  });

  it("redirects to an absolute trusted callback", async () => {
    await setUp();
    const token = await requestToken();
    const callback = "http://localhost:3000/reset";
    const res = await new TestBrowser(t.auth).get(
      `/reset-password/${token}?callbackURL=${encodeURIComponent(callback)}`,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${callback}?token=${token}`);
  });

  it("redirects with error=INVALID_TOKEN for an unknown, malformed or expired token", async () => {
    await setUp();
    const token = await requestToken();
    const browser = new TestBrowser(t.auth);
    for (const bad of ["AAAAAAAAAAAAAAAAAAAAAAAA", "short", "%24ne"]) {
      const res = await browser.get(`/reset-password/${bad}?callbackURL=%2Freset`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/reset?error=INVALID_TOKEN");
    }
    t.advance(3601);
    const expired = await browser.get(`/reset-password/${token}?callbackURL=%2Freset`);
    expect(expired.status).toBe(302);
    expect(expired.headers.get("location")).toBe("/reset?error=INVALID_TOKEN");
  });

  it("refuses an untrusted callbackURL with 403 and a missing one with 400", async () => {
    await setUp();
    const token = await requestToken();
    const browser = new TestBrowser(t.auth);
    const untrusted = await browser.get(
      `/reset-password/${token}?callbackURL=${encodeURIComponent("https://evil.example.com/")}`,
    );
    expect(untrusted.status).toBe(403);
    expect(untrusted.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    const missing = await browser.get(`/reset-password/${token}`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await resetRows(t.db)).toHaveLength(1);
  });
});

describe("POST /reset-password", () => {
  it("follows the mailed link to the app and sets the new password with the token it got", async () => {
    await setUp();
    await requestToken("/reset");
    const browser = new TestBrowser(t.auth);
    const followed = await browser.get(linkInMail());
    expect(followed.status).toBe(302);
    const location = followed.headers.get("location")!;
    expect(location).toMatch(/^\/reset\?token=[A-Za-z0-9]{24}$/);
    const token = new URL(location, "http://app").searchParams.get("token");
    const hashBefore = await storedHash();
    const res = await browser.post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(await storedHash()).not.toBe(hashBefore);
    expect(await storedHash()).toMatch(/^s1\$/);
    expect(await resetRows(t.db)).toHaveLength(0);
    expect(await signInStatus(OLD_PASSWORD)).toBe(401);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("accepts the token in the query", async () => {
    await setUp();
    const token = await requestToken();
    const res = await new TestBrowser(t.auth).post(`/reset-password?token=${token}`, {
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("works once: the second use of a token is 400 invalid token and changes nothing", async () => {
    await setUp();
    const token = await requestToken();
    const browser = new TestBrowser(t.auth);
    expect((await browser.post("/reset-password", { newPassword: NEW_PASSWORD, token })).status).toBe(200);
    const hashAfterFirst = await storedHash();
    const again = await browser.post("/reset-password", { newPassword: "a third password", token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_TOKEN);
    expect(await storedHash()).toBe(hashAfterFirst);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("works until the lifetime ends and is 400 invalid token after it", async () => {
    await setUp();
    const early = await requestToken();
    t.advance(3599);
    const ok = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: NEW_PASSWORD,
      token: early,
    });
    expect(ok.status).toBe(200);

    const late = await requestToken();
    const hashBefore = await storedHash();
    t.advance(3601);
    const res = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: "another password",
      token: late,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect(await storedHash()).toBe(hashBefore);
  });

  it("follows a configured lifetime", async () => {
    await setUp({ emailAndPassword: { resetPasswordTokenExpiresIn: 60 } });
    const token = await requestToken();
    t.advance(61);
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_TOKEN);
  });

  it("answers 400 invalid token for a missing, empty, unknown or malformed token", async () => {
    await setUp();
    await requestToken();
    const browser = new TestBrowser(t.auth);
    for (const token of [undefined, "", "AAAAAAAAAAAAAAAAAAAAAAAA", "not a token"]) {
      const res = await browser.post("/reset-password", { newPassword: NEW_PASSWORD, token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
    expect(await resetRows(t.db)).toHaveLength(1);
    expect(await signInStatus(OLD_PASSWORD)).toBe(200);
  });

  it.each([
    ["Password too short", "PASSWORD_TOO_SHORT", "short"],
    ["Password too long", "PASSWORD_TOO_LONG", "x".repeat(129)],
  ])("refuses with 400 %s without consuming the token", async (message, code, newPassword) => {
    await setUp();
    const token = await requestToken();
    const hashBefore = await storedHash();
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword, token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code, message });
    expect(await storedHash()).toBe(hashBefore);
    expect(await resetRows(t.db)).toHaveLength(1);
    const retry = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(retry.status).toBe(200);
  });

  it("follows the configured length bounds", async () => {
    await setUp({ emailAndPassword: { minPasswordLength: 12, maxPasswordLength: 21 } });
    const token = await requestToken();
    const browser = new TestBrowser(t.auth);
    const short = await browser.post("/reset-password", { newPassword: "elevenchars", token });
    expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await browser.post("/reset-password", { newPassword: "twenty-two characters!", token });
    expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    expect((await browser.post("/reset-password", { newPassword: "twelve chars", token })).status).toBe(200);
  });

  it("refuses an object in place of the token or the password with 400, consuming nothing", async () => {
    await setUp();
    const token = await requestToken();
    const hashBefore = await storedHash();
    const browser = new TestBrowser(t.auth);
    for (const body of [
      { newPassword: NEW_PASSWORD, token: { $ne: null } },
      { newPassword: { $ne: null }, token },
      { newPassword: NEW_PASSWORD, token: [token] },
      { newPassword: NEW_PASSWORD, token, email: "other@example.com" },
    ]) {
      const res = await browser.post("/reset-password", body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    }
    expect(await resetRows(t.db)).toHaveLength(1);
    expect(await storedHash()).toBe(hashBefore);
  });

  it("lets exactly one of 10 concurrent uses of a token win, and keeps the winner's password", async () => {
    await setUp();
    const token = await requestToken();
    const passwords = Array.from({ length: 10 }, (_, i) => `concurrent password ${i}`);
    const results = await Promise.all(
      passwords.map((newPassword) => new TestBrowser(t.auth).post("/reset-password", { newPassword, token })),
    );
    const winners = results.flatMap((res, i) => (res.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    const losers = results.filter((res) => res.status !== 200);
    expect(losers).toHaveLength(9);
    for (const res of losers) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
    const winner = winners[0]!;
    expect(await signInStatus(passwords[winner]!)).toBe(200);
    expect(await signInStatus(passwords[(winner + 1) % 10]!)).toBe(401);
    expect(await resetRows(t.db)).toHaveLength(0);
  });

  it("invalidates the user's other outstanding reset links", async () => {
    await setUp();
    const first = await requestToken();
    const second = await requestToken();
    expect(await resetRows(t.db)).toHaveLength(2);
    const browser = new TestBrowser(t.auth);
    expect((await browser.post("/reset-password", { newPassword: NEW_PASSWORD, token: second })).status).toBe(
      200,
    );
    const old = await browser.post("/reset-password", { newPassword: "attacker password", token: first });
    expect(old.status).toBe(400);
    expect(old.body).toEqual(INVALID_TOKEN);
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("leaves sessions alone when revokeSessionsOnPasswordReset is off", async () => {
    const userId = await setUp({ emailAndPassword: { revokeSessionsOnPasswordReset: false } });
    const token = await requestToken();
    await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    const sessions = await t.db.collection("sessions").find().toArray();
    expect(sessions.map((s) => s.userId.toHexString())).toEqual([userId]);
  });

  it("deletes every session of the user by default (revokeSessionsOnPasswordReset)", async () => {
    await setUp();
    const signedIn = new TestBrowser(t.auth);
    await signedIn.post("/sign-in/email", { email: EMAIL, password: OLD_PASSWORD });
    await signUp(new TestBrowser(t.auth), { email: "bob@example.com" });
    expect(await t.db.collection("sessions").countDocuments()).toBe(3);
    const token = await requestToken();
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(200);
    const bob = await t.db.collection("users").findOne({ email: "bob@example.com" });
    const left = await t.db.collection("sessions").find().toArray();
    expect(left.map((s) => s.userId.toHexString())).toEqual([bob?._id.toHexString()]);
    expect((await signedIn.get("/get-session")).body).toBeNull();
  });

  it("creates a credential account for a user who had none", async () => {
    await setUp();
    const user = await t.db.collection("users").findOne({ email: EMAIL });
    await t.db.collection("accounts").deleteMany({ userId: user?._id });
    const token = await requestToken();
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(200);
    const accounts = await t.db.collection("accounts").find({ userId: user?._id }).toArray();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ providerId: "credential", accountId: user?._id.toHexString() });
    expect(await signInStatus(NEW_PASSWORD)).toBe(200);
  });

  it("answers 400 Reset password isn't enabled once the feature is off, keeping the token", async () => {
    await openAuth({ emailAndPassword: { resetPasswordEnabled: false } });
    await t.db.collection("verifications").insertOne({
      identifier: resetPasswordIdentifier("AAAAAAAAAAAAAAAAAAAAAAAA"),
      value: "0123456789abcdef01234567",
      expiresAt: new Date(t.now().getTime() + 3600_000),
    });
    const res = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: NEW_PASSWORD,
      token: "AAAAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "RESET_PASSWORD_DISABLED", message: "Reset password isn't enabled" });
    expect(await resetRows(t.db)).toHaveLength(1);
  });

  it("does not claim success when an account update hook refuses the new password", async () => {
    await setUp({ hooks: { account: { update: { before: () => false } } } });
    const hashBefore = await storedHash();
    const other = await requestToken();
    const token = await requestToken();
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "FAILED_TO_UPDATE_USER", message: "Failed to update user" });
    expect(await storedHash()).toBe(hashBefore);
    expect(await signInStatus(OLD_PASSWORD)).toBe(200);
    expect(await signInStatus(NEW_PASSWORD)).toBe(401);
    // Nothing changed, so the user's other link is still good (only the used one is spent).
    const live = (await resetRows(t.db)).map((row) => row.identifier);
    expect(live).toEqual([resetPasswordIdentifier(other)]);
  });

  it("treats a token whose user is gone as invalid", async () => {
    await setUp();
    const token = await requestToken();
    await t.db.collection("users").deleteMany({});
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect(await t.db.collection("accounts").countDocuments({ password: { $ne: null } })).toBe(1);
  });
});
