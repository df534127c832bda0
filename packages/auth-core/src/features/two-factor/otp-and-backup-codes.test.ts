import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import type { TestAuth } from "#test/test-auth.ts";
import {
  CHALLENGE_COOKIE,
  challengedBrowser,
  EMAIL,
  ERR,
  rowsLike,
  sessionsOf,
  storedText,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

function mailedCode(t: TestAuth): string {
  const text = t.outbox.latestTo(EMAIL)?.text ?? "";
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in ${text}`);
  return code;
}

describe("POST /two-factor/send-otp and /two-factor/verify-otp", () => {
  it("mails a 6-digit code (stored only as a MAC) that completes the sign-in once", async () => {
    const { t, userId } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const sent = await browser.post("/two-factor/send-otp", {});
    expect({ status: sent.status, body: sent.body }).toEqual({ status: 200, body: { status: true } });
    const mail = t.outbox.latestTo(EMAIL);
    expect(mail?.kind).toBe("two-factor-otp");
    expect(mail?.subject).not.toMatch(/\d{6}/);
    const code = mailedCode(t);
    expect(await storedText(t)).not.toContain(code);
    const before = await sessionsOf(t, userId);
    const res = await browser.post<{ token: string }>("/two-factor/verify-otp", { code });
    expect(res.status).toBe(200);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await rowsLike(t, "two-factor-otp:")).toEqual([]);
  });

  it("refuses a wrong code (401) and an expired one after 3 minutes (400), minting nothing", async () => {
    const { t, userId } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    await browser.post("/two-factor/send-otp", {});
    const code = mailedCode(t);
    const wrong = await browser.post("/two-factor/verify-otp", {
      code: code === "000000" ? "000001" : "000000",
    });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: ERR.INVALID_CODE });
    t.advance(181);
    const before = await sessionsOf(t, userId);
    const expired = await browser.post("/two-factor/verify-otp", { code });
    expect({ status: expired.status, body: expired.body }).toEqual({ status: 400, body: ERR.OTP_EXPIRED });
    expect(await sessionsOf(t, userId)).toBe(before);
    // A new code replaces it and works.
    await browser.post("/two-factor/send-otp", {});
    expect((await browser.post("/two-factor/verify-otp", { code: mailedCode(t) })).status).toBe(200);
  });

  it("binds the code to its challenge: another pending sign-in cannot use it (docs/security.md)", async () => {
    const { t } = await twoFactor.enrolled();
    const first = await challengedBrowser(t);
    await first.post("/two-factor/send-otp", {});
    const code = mailedCode(t);
    const second = await challengedBrowser(t);
    const res = await second.post("/two-factor/verify-otp", { code });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_CODE });
    expect((await first.post("/two-factor/verify-otp", { code })).status).toBe(200);
  });

  it("a resend replaces the previous code; at most 5 mails per challenge", async () => {
    const { t } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    await browser.post("/two-factor/send-otp", {});
    const firstCode = mailedCode(t);
    for (let i = 0; i < 4; i++) expect((await browser.post("/two-factor/send-otp", {})).status).toBe(200);
    const last = mailedCode(t);
    const sixth = await browser.post("/two-factor/send-otp", {});
    expect({ status: sixth.status, body: sixth.body }).toEqual({ status: 429, body: ERR.TOO_MANY_REQUESTS });
    expect(t.outbox.messages().filter((m) => m.kind === "two-factor-otp")).toHaveLength(5);
    expect(await rowsLike(t, "two-factor-otp:")).toHaveLength(1);
    if (firstCode !== last) {
      const old = await browser.post("/two-factor/verify-otp", { code: firstCode });
      expect(old.status).toBe(401);
    }
    expect((await browser.post("/two-factor/verify-otp", { code: last })).status).toBe(200);
  });

  it("needs a challenge, and is refused when OTP is turned off", async () => {
    const { t } = await twoFactor.enrolled({ twoFactor: { otpEnabled: false } });
    const none = await new TestBrowser(t.auth).post("/two-factor/send-otp", {});
    expect({ status: none.status, body: none.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
    const browser = new TestBrowser(t.auth);
    const signIn = await browser.post("/sign-in/email", { email: EMAIL, password: "correct horse battery" });
    expect(signIn.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    const send = await browser.post("/two-factor/send-otp", {});
    expect({ status: send.status, body: send.body }).toEqual({ status: 400, body: ERR.OTP_NOT_ENABLED });
    const verify = await browser.post("/two-factor/verify-otp", { code: "123456" });
    expect({ status: verify.status, body: verify.body }).toEqual({ status: 400, body: ERR.OTP_NOT_ENABLED });
    expect(t.outbox.messages().filter((m) => m.kind === "two-factor-otp")).toEqual([]);
  });

  it("hands the code to the app's sendOTP hook instead of the mailer when one is given", async () => {
    const sent: { email: string; code: string }[] = [];
    const { t } = await twoFactor.enrolled({
      twoFactor: { sendOTP: ({ user, code }) => void sent.push({ email: user.email, code }) },
    });
    const browser = await challengedBrowser(t);
    await browser.post("/two-factor/send-otp", {});
    expect(sent).toHaveLength(1);
    expect(sent[0]?.email).toBe(EMAIL);
    expect(t.outbox.messages().filter((m) => m.kind === "two-factor-otp")).toEqual([]);
    expect((await browser.post("/two-factor/verify-otp", { code: sent[0]!.code })).status).toBe(200);
  });
});

describe("POST /two-factor/verify-backup-code", () => {
  it("completes the sign-in with a backup code, typed any way; each code works once", async () => {
    const { t, userId, backupCodes } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const typed = ` ${backupCodes[0]!.toUpperCase().replace("-", "")} `;
    const res = await browser.post("/two-factor/verify-backup-code", { code: typed });
    expect(res.status).toBe(200);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await rowsLike(t, "two-factor-backup-used:")).toHaveLength(1);
    const again = await challengedBrowser(t);
    const reused = await again.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
    expect({ status: reused.status, body: reused.body }).toEqual({
      status: 401,
      body: ERR.INVALID_BACKUP_CODE,
    });
    expect(again.cookies.has(SESSION_COOKIE)).toBe(false);
    const before = await sessionsOf(t, userId);
    expect((await again.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).status).toBe(200);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
  });

  it("refuses unknown codes and codes of a replaced set", async () => {
    const { t, ada, backupCodes } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    for (const code of ["aaaaa-aaaaa", "x", "ééééé-ééééé"]) {
      const res = await browser.post("/two-factor/verify-backup-code", { code });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_BACKUP_CODE });
    }
    await ada.post("/two-factor/generate-backup-codes", { password: "correct horse battery" });
    const old = await browser.post("/two-factor/verify-backup-code", { code: backupCodes[2] });
    expect({ status: old.status, body: old.body }).toEqual({ status: 401, body: ERR.INVALID_BACKUP_CODE });
  });

  it("10 concurrent uses of one code, each on its own challenge: exactly one session", async () => {
    const { t, userId, backupCodes } = await twoFactor.enrolled();
    // The challenges one after the other: the per-account sign-in throttle lets at most 5 password
    // attempts be in flight at once (features/sign-in-throttle); the race under test is the codes'.
    const browsers: TestBrowser[] = [];
    for (let i = 0; i < 10; i++) browsers.push(await challengedBrowser(t));
    const before = await sessionsOf(t, userId);
    const answers = await Promise.all(
      browsers.map((browser) => browser.post("/two-factor/verify-backup-code", { code: backupCodes[3] })),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    expect(answers.filter((res) => res.status !== 200).map((res) => res.body)).toEqual(
      Array.from({ length: 9 }, () => ERR.INVALID_BACKUP_CODE),
    );
    expect(await sessionsOf(t, userId)).toBe(before + 1);
    expect(await rowsLike(t, "two-factor-backup-used:")).toHaveLength(1);
  });

  it("10 concurrent right TOTP codes on one challenge: exactly one session", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const before = await sessionsOf(t, userId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => browser.post("/two-factor/verify-totp", { code: code() })),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
    expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(false);
  });
});
