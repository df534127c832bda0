import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { mailedSignIn, PASSWORDLESS } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const PASSWORD = "a brand new passphrase";
const INVALID_OTP = { code: "INVALID_OTP", message: "Invalid OTP" };
const TOO_MANY_ATTEMPTS = { code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" };

const { t, openAuth } = useTestAuthPerTest();

/** A six-digit code other than `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** Ada (verified) asks for a reset code; the code of her mail. */
async function requestResetCode(): Promise<string> {
  await signUpUser(t, { email: EMAIL, emailVerified: true });
  const res = await new TestBrowser(t.auth).post("/forget-password/email-otp", { email: EMAIL });
  expect(res.body).toEqual({ success: true });
  const { code } = mailedSignIn(t, EMAIL);
  if (!code) throw new Error("no code in the mail");
  return code;
}

function check(otp: string) {
  return new TestBrowser(t.auth).post("/email-otp/check-verification-otp", {
    email: EMAIL,
    type: "forget-password",
    otp,
  });
}

function reset(otp: string) {
  return new TestBrowser(t.auth).post("/email-otp/reset-password", { email: EMAIL, otp, password: PASSWORD });
}

async function signsInWithNewPassword(): Promise<boolean> {
  const res = await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password: PASSWORD });
  return res.status === 200;
}

describe('check the code, then use it (docs/passwordless.md "Codes")', () => {
  it("two typos, a right check, then the reset: the right check gave its try back", async () => {
    await openAuth(PASSWORDLESS);
    const code = await requestResetCode();
    for (let i = 0; i < 2; i++) expect((await check(wrong(code))).body).toEqual(INVALID_OTP);
    expect((await check(code)).body).toEqual({ success: true });
    const res = await reset(code);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
    expect(await signsInWithNewPassword()).toBe(true);
  });

  it("with allowedAttempts 1, a check then the reset succeeds", async () => {
    await openAuth({ ...PASSWORDLESS, emailOTP: { enabled: true, allowedAttempts: 1 } });
    const code = await requestResetCode();
    expect((await check(code)).body).toEqual({ success: true });
    expect((await reset(code)).body).toEqual({ success: true });
    expect(await signsInWithNewPassword()).toBe(true);
  });

  it("right checks give wrong answers no more tries: the 4th wrong answer kills the code", async () => {
    await openAuth(PASSWORDLESS);
    const code = await requestResetCode();
    for (let i = 0; i < 3; i++) {
      expect((await check(wrong(code))).body).toEqual(INVALID_OTP);
      if (i < 2) expect((await check(code)).body).toEqual({ success: true });
    }
    const last = await check(code);
    expect({ status: last.status, body: last.body }).toEqual({ status: 403, body: TOO_MANY_ATTEMPTS });
    expect((await reset(code)).body).toEqual(INVALID_OTP);
    expect(await signsInWithNewPassword()).toBe(false);
  });

  it("parallel wrong checks get no more than 3 comparisons, and the code dies", async () => {
    await openAuth(PASSWORDLESS);
    const code = await requestResetCode();
    const guesses = Array.from({ length: 10 }, (_, i) => wrong(String(Number(code) + i)));
    const answers = await Promise.all(guesses.map((guess) => check(guess)));
    const codes = answers.map((res) => (res.body as { code: string }).code);
    expect(codes.filter((c) => c === "INVALID_OTP").length).toBeLessThanOrEqual(3);
    expect(codes).toContain("TOO_MANY_ATTEMPTS");
    expect((await reset(code)).body).toEqual(INVALID_OTP);
    expect(await signsInWithNewPassword()).toBe(false);
  });
});
