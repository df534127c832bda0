import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import { mailCount, mailedSignIn, PASSWORDLESS, passwordlessRows } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const INVALID_OTP = { code: "INVALID_OTP", message: "Invalid OTP" };
const OTP_EXPIRED = { code: "OTP_EXPIRED", message: "OTP expired" };
const TOO_MANY_ATTEMPTS = { code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" };

const { t, openAuth } = useTestAuthPerTest();

async function requestCode(type = "sign-in", email = EMAIL): Promise<string> {
  const res = await new TestBrowser(t.auth).post("/email-otp/send-verification-otp", { email, type });
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
  const { code } = mailedSignIn(t, email);
  if (!code) throw new Error("no code in the mail");
  return code;
}

/** The account's sign-in throttle rows (features/sign-in-throttle), every lane. */
const failureRows = (userId: string) =>
  t.db.collection("verifications").countDocuments({ identifier: { $regex: `^sign-in-attempt:${userId}:` } });

/** A six-digit code other than `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

function signInWithCode(otp: string, browser = new TestBrowser(t.auth), email = EMAIL) {
  return browser.post("/sign-in/email-otp", { email, otp });
}

describe("codes", () => {
  it("a sign-in code signs in once: 6 digits, stored only as a MAC", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const code = await requestCode();
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(await passwordlessRows(t))).not.toContain(`"${code}"`);
    const browser = new TestBrowser(t.auth);
    const res = await signInWithCode(code, browser);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), user: { email: EMAIL } });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    const again = await signInWithCode(code);
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: INVALID_OTP });
  });

  it("expires after 5 minutes", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const code = await requestCode();
    t.advance(301);
    const res = await signInWithCode(code);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: OTP_EXPIRED });
  });

  it("dies after 3 wrong tries: the 4th try with the right code fails, and the link of its mail too", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const code = await requestCode();
    const { token } = mailedSignIn(t, EMAIL);
    for (let i = 0; i < 3; i++) expect((await signInWithCode(wrong(code))).body).toEqual(INVALID_OTP);
    const right = await signInWithCode(code);
    expect({ status: right.status, body: right.body }).toEqual({ status: 403, body: TOO_MANY_ATTEMPTS });
    const link = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect(link.status).toBe(400);
    expect(await t.db.collection("sessions").countDocuments({})).toBe(1);
  });

  it("parallel guesses get no more than 3 comparisons, each counted as the account's failure", async () => {
    await openAuth(PASSWORDLESS);
    const { id } = await signUpUser(t, { email: EMAIL, emailVerified: true });
    const code = await requestCode();
    const guesses = Array.from({ length: 10 }, (_, i) => wrong(String(Number(code) + i)));
    const answers = await Promise.all(guesses.map((guess) => signInWithCode(guess)));
    const codes = answers.map((res) => (res.body as { code: string }).code);
    const compared = codes.filter((c) => c === "INVALID_OTP").length;
    expect(compared).toBeLessThanOrEqual(3);
    expect(codes).toContain("TOO_MANY_ATTEMPTS");
    // Admitted by one read of the throttle, the wrong ones are each written after their compare.
    expect(await failureRows(id)).toBe(compared);
    // The code died with its tries: the right one signs nobody in.
    const right = await signInWithCode(code);
    expect(right.status).toBe(400);
    expect(right.body).toEqual(INVALID_OTP);
    expect(await t.db.collection("sessions").countDocuments({})).toBe(1);
  });

  it("answers an address nobody has exactly as a known one, with the same database commands", async () => {
    await openAuth({
      magicLink: { enabled: true, disableSignUp: true },
      emailOTP: { enabled: true, disableSignUp: true },
    });
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const ask = (email: string) =>
      new TestBrowser(t.auth).post("/email-otp/send-verification-otp", { email, type: "sign-in" });
    const known = await ask(EMAIL);
    const unknown = await ask("nobody@example.com");
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: known.status,
      body: known.body,
    });
    expect(mailCount(t, "nobody@example.com")).toBe(0);
    // Compared as sets: commands sent together (Promise.all) reach the wire in either order.
    const commandsKnown = await t.commands(() => ask("ada@example.com"));
    const commandsUnknown = await t.commands(() => ask("nobody@example.com"));
    expect(commandsUnknown.sort()).toEqual(commandsKnown.sort());
    const tryKnown = await t.commands(() => signInWithCode("000000"));
    const tryUnknown = await t.commands(() => signInWithCode("000000", undefined, "nobody@example.com"));
    expect(tryUnknown.sort()).toEqual(tryKnown.sort());
    expect((await signInWithCode("000000", undefined, "nobody@example.com")).body).toEqual(INVALID_OTP);
    const reset = (email: string) => new TestBrowser(t.auth).post("/forget-password/email-otp", { email });
    const resetKnown = await t.commands(() => reset(EMAIL));
    const resetUnknown = await t.commands(() => reset("nobody@example.com"));
    expect(resetUnknown.sort()).toEqual(resetKnown.sort());
    expect((await reset("nobody@example.com")).body).toEqual((await reset(EMAIL)).body);
  });

  it("counts against the mail limit per sender and mailbox: the 4th request in the window mails nothing and keeps the 3rd code", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    for (let i = 0; i < 3; i++) await requestCode();
    const third = mailedSignIn(t, EMAIL).code!;
    const fourth = await new TestBrowser(t.auth).post("/email-otp/send-verification-otp", {
      email: EMAIL,
      type: "sign-in",
    });
    expect(fourth.body).toEqual({ success: true });
    expect(mailCount(t, EMAIL)).toBe(3);
    expect((await signInWithCode(third)).status).toBe(200);
  });

  it("signs up an address nobody has, verified, with the name given", async () => {
    await openAuth(PASSWORDLESS);
    const code = await requestCode("sign-in", "new@example.com");
    const res = await new TestBrowser(t.auth).post("/sign-in/email-otp", {
      email: "new@example.com",
      otp: code,
      name: "Newcomer",
    });
    expect(res.status).toBe(200);
    expect(await t.db.collection("users").findOne({ email: "new@example.com" })).toMatchObject({
      name: "Newcomer",
      emailVerified: true,
    });
  });

  it("refuses a banned user and changes nothing", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    await t.db.collection("users").updateOne({ email: EMAIL }, { $set: { banned: true } });
    const sessions = await t.db.collection("sessions").countDocuments({});
    const res = await signInWithCode(await requestCode());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "BANNED_USER" });
    expect(await t.db.collection("sessions").countDocuments({})).toBe(sessions);
  });

  it("a code of one purpose is no code for another", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL });
    const code = await requestCode("email-verification");
    expect((await signInWithCode(code)).body).toEqual(INVALID_OTP);
  });

  it("codes go through the account's sign-in throttle: after 5 failures the next try waits", async () => {
    await openAuth(PASSWORDLESS, { frozen: true });
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    for (let round = 0; round < 2; round++) {
      const code = await requestCode();
      for (let i = 0; i < (round === 0 ? 3 : 2); i++) await signInWithCode(wrong(code));
    }
    const code = mailedSignIn(t, EMAIL).code!;
    const res = await signInWithCode(code);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: "ACCOUNT_TEMPORARILY_LOCKED" });
    expect(res.headers.get("retry-after")).toBe("1");
    t.advance(1);
    expect((await signInWithCode(code)).status).toBe(200);
  });

  it("a code shares its account's throttle with the password, and its success clears the account's failures", async () => {
    await openAuth(PASSWORDLESS, { frozen: true });
    const { id } = await signUpUser(t, { email: EMAIL, emailVerified: true });
    for (let i = 0; i < 5; i++) {
      const res = await new TestBrowser(t.auth).post("/sign-in/email", {
        email: EMAIL,
        password: "not-the-password",
      });
      expect(res.status).toBe(401);
    }
    const code = await requestCode();
    const res = await signInWithCode(code);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 429,
      body: { code: "ACCOUNT_TEMPORARILY_LOCKED", message: expect.any(String) },
    });
    t.advance(1);
    expect((await signInWithCode(code)).status).toBe(200);
    expect(await failureRows(id)).toBe(0);
  });

  it("a code used on a known device clears the failures strangers left on the account's other lane", async () => {
    await openAuth(PASSWORDLESS, { frozen: true });
    const { id } = await signUpUser(t, {
      email: EMAIL,
      emailVerified: true,
      password: "correct horse battery",
    });
    const owner = new TestBrowser(t.auth);
    const proven = await owner.post("/sign-in/email", { email: EMAIL, password: "correct horse battery" });
    expect(proven.status).toBe(200);
    expect(owner.cookies.has("tessera.known_device")).toBe(true);
    for (let i = 0; i < 4; i++) {
      const res = await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password: "wrong" });
      expect(res.status).toBe(401);
    }
    expect(await failureRows(id)).toBe(4);
    // The owner's device lane is clean, yet the success restarts the count on every lane.
    expect((await signInWithCode(await requestCode(), owner)).status).toBe(200);
    expect(await failureRows(id)).toBe(0);
  });

  it("a code signs in whoever holds its address when it is used: an account that moved away is not signed in", async () => {
    await openAuth({
      ...PASSWORDLESS,
      user: { changeEmail: { enabled: true, verifyNewEmailFirst: false } },
    });
    const mover = await signUpUser(t, { email: EMAIL });
    const code = await requestCode();
    const moved = await mover.browser.post("/change-email", { newEmail: "moved@example.com" });
    expect(moved.status).toBe(200);
    const res = await signInWithCode(code);
    expect(res.status).toBe(200);
    const body = res.body as { user: { id: string; email: string } };
    expect(body.user).toMatchObject({ email: EMAIL, emailVerified: true });
    expect(body.user.id).not.toBe(mover.id);
    const users = await t.db
      .collection("users")
      .find({}, { projection: { email: 1 } })
      .toArray();
    expect(users.map((user) => user.email).sort()).toEqual([EMAIL, "moved@example.com"]);
  });
});

describe("verify-email, check and reset by code", () => {
  it("verify-email marks the address verified", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL });
    const code = await requestCode("email-verification");
    expect(mailedSignIn(t, EMAIL).kind).toBe("email-otp");
    const res = await new TestBrowser(t.auth).post("/email-otp/verify-email", { email: EMAIL, otp: code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      token: null,
      user: { email: EMAIL, emailVerified: true },
    });
    expect(await t.db.collection("users").findOne({ email: EMAIL })).toMatchObject({ emailVerified: true });
  });

  it("a verified address gets no verification code, and the same answer", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const res = await new TestBrowser(t.auth).post("/email-otp/send-verification-otp", {
      email: EMAIL,
      type: "email-verification",
    });
    expect(res.body).toEqual({ success: true });
    expect(mailCount(t, EMAIL)).toBe(0);
  });

  it("check-verification-otp tells a right code without using it up", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const code = await requestCode();
    const check = (otp: string) =>
      new TestBrowser(t.auth).post("/email-otp/check-verification-otp", {
        email: EMAIL,
        type: "sign-in",
        otp,
      });
    expect((await check(wrong(code))).body).toEqual(INVALID_OTP);
    expect((await check(code)).body).toEqual({ success: true });
    expect((await signInWithCode(code)).status).toBe(200);
  });

  it("reset by code sets the password through the password rules and ends every session", async () => {
    await openAuth(PASSWORDLESS);
    const user = await signUpUser(t, { email: EMAIL, emailVerified: true });
    const res = await new TestBrowser(t.auth).post("/forget-password/email-otp", { email: EMAIL });
    expect(res.body).toEqual({ success: true });
    const code = mailedSignIn(t, EMAIL).code!;
    const reset = (password: string) =>
      new TestBrowser(t.auth).post("/email-otp/reset-password", { email: EMAIL, otp: code, password });
    const refused = await reset(EMAIL);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "PASSWORD_CONTEXT_SPECIFIC" });
    expect((await reset("short")).body).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect((await reset("a brand new passphrase")).body).toEqual({ success: true });
    expect((await user.browser.get("/get-session")).body).toBeNull();
    const signIn = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: EMAIL,
      password: "a brand new passphrase",
    });
    expect(signIn.status).toBe(200);
    expect((await reset("another new passphrase")).body).toEqual(INVALID_OTP);
  });

  it("the endpoints are not found while codes are off (the default)", async () => {
    await openAuth();
    const res = await new TestBrowser(t.auth).post("/email-otp/send-verification-otp", {
      email: EMAIL,
      type: "sign-in",
    });
    expect(res.status).toBe(404);
  });
});
