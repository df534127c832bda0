import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import {
  CHALLENGE_COOKIE,
  challengedBrowser,
  EMAIL,
  ERR,
  PASSWORD,
  rowsLike,
  sessionsOf,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

const wrongCode = (right: string) => (right === "000000" ? "000001" : "000000");

describe("sign-in of a two-factor user", () => {
  it("answers the two-factor redirect with a signed 10-minute challenge cookie and no session", async () => {
    const { t, userId } = await twoFactor.enrolled({ session: { cookieCache: { enabled: true } } });
    const before = await sessionsOf(t, userId);
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] },
    });
    // The challenge, and the known-device mark the proven password earns (features/sign-in-throttle).
    const lines = res.headers.getSetCookie();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^tessera\.known_device=[^;]+; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(lines[1]).toMatch(
      /^tessera\.two_factor=[^;]+\.[^;]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    // No session row, no session cookie, no cookie-cache chunk (docs/security.md).
    expect(await sessionsOf(t, userId)).toBe(before);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(browser.cookies.has(CACHE_COOKIE)).toBe(false);
    const session = await browser.get("/get-session");
    expect(session.body).toBeNull();
    const listed = await browser.get("/list-sessions");
    expect(listed.status).toBe(401);
    expect(await rowsLike(t, "two-factor-challenge:")).toHaveLength(1);
  });

  it("completes with a TOTP code: one session, the challenge consumed, its cookie cleared", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const before = await sessionsOf(t, userId);
    const res = await browser.post<{ token: string; user: { id: string; email: string } }>(
      "/two-factor/verify-totp",
      { code: code() },
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: userId.toHexString(), email: EMAIL });
    expect(await sessionsOf(t, userId)).toBe(before + 1);
    const row = await t.db.collection("sessions").findOne({ token: res.body.token });
    expect(row?.userId).toEqual(userId);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(false);
    expect(await rowsLike(t, "two-factor-challenge:")).toEqual([]);
    const session = await browser.get<{ user: { id: string } }>("/get-session");
    expect(session.body.user.id).toBe(userId.toHexString());
  });

  it("carries rememberMe false through to the session (browser-session cookie, 1 day)", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t, false);
    const res = await browser.post<{ token: string }>("/two-factor/verify-totp", { code: code() });
    expect(res.status).toBe(200);
    const sessionLine = res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(sessionLine).not.toContain("Max-Age");
    const row = await t.db.collection("sessions").findOne({ token: res.body.token });
    expect(row?.dontRemember).toBe(true);
    expect(row!.expiresAt.getTime() - t.now().getTime()).toBeLessThanOrEqual(86400_000);
  });

  it("refuses the same TOTP code twice (replay within its window), also across challenges", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const first = await challengedBrowser(t);
    const used = code();
    expect((await first.post("/two-factor/verify-totp", { code: used })).status).toBe(200);
    const second = await challengedBrowser(t);
    const replay = await second.post("/two-factor/verify-totp", { code: used });
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 401, body: ERR.INVALID_CODE });
    expect(second.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionsOf(t, userId)).toBe(2); // the enrolling one and the first sign-in
    t.advance(30);
    expect((await second.post("/two-factor/verify-totp", { code: code() })).status).toBe(200);
  });

  it("accepts a code one step old or ahead (clock drift) but not two", async () => {
    const { t, code } = await twoFactor.enrolled();
    t.advance(60); // steps never used yet on both sides of now
    const browser = await challengedBrowser(t);
    const far = await browser.post("/two-factor/verify-totp", { code: code(-2) });
    expect(far.status).toBe(401);
    expect((await browser.post("/two-factor/verify-totp", { code: code(-1) })).status).toBe(200);
    const ahead = await challengedBrowser(t);
    expect((await ahead.post("/two-factor/verify-totp", { code: code(1) })).status).toBe(200);
  });

  it("expires the challenge after 10 minutes", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    t.advance(601);
    const before = await sessionsOf(t, userId);
    const res = await browser.post("/two-factor/verify-totp", { code: code() });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
    expect(await sessionsOf(t, userId)).toBe(before);
  });

  it("refuses a missing, forged or foreign-signed challenge cookie", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const genuine = browser.cookies.get(CHALLENGE_COOKIE)!;
    const forged = `${genuine.slice(0, -2)}${genuine.endsWith("AA") ? "BB" : "AA"}`;
    for (const value of [forged, "two-factor:abc.def", genuine.replace(/^[^.]+/, "x".repeat(32))]) {
      const res = await browser.post(
        "/two-factor/verify-totp",
        { code: code() },
        {
          headers: { cookie: `${CHALLENGE_COOKIE}=${value}` },
        },
      );
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
    }
    // A signed session cookie is not a challenge, though both are signed with the same secret.
    const signedIn = new TestBrowser(t.auth);
    await signedIn.post("/sign-up/email", { email: "bob@example.com", password: PASSWORD, name: "Bob" });
    const res = await signedIn.post(
      "/two-factor/verify-otp",
      { code: "123456" },
      {
        headers: { cookie: `${CHALLENGE_COOKIE}=${signedIn.cookies.get(SESSION_COOKIE)}` },
      },
    );
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
  });

  it("gates verify-email auto sign-in: the address is verified, but no session without the factor", async () => {
    const { t, userId, code } = await twoFactor.enrolled({
      emailVerification: { autoSignInAfterVerification: true },
    });
    await new TestBrowser(t.auth).post("/send-verification-email", { email: EMAIL });
    const link = /https?:\/\/\S+verify-email\S+/.exec(t.outbox.latestTo(EMAIL)?.text ?? "")?.[0] ?? "";
    const url = new URL(link);
    const visitor = new TestBrowser(t.auth);
    const before = await sessionsOf(t, userId);
    const res = await visitor.get<Record<string, unknown>>(
      `/verify-email?token=${url.searchParams.get("token")}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      twoFactorRedirect: true,
      twoFactorMethods: ["totp", "otp"],
    });
    expect(visitor.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionsOf(t, userId)).toBe(before);
    expect((await t.db.collection("users").findOne({ _id: userId }))?.emailVerified).toBe(true);
    // The challenge it set completes like a sign-in's.
    expect((await visitor.post("/two-factor/verify-totp", { code: code() })).status).toBe(200);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
  });

  it("gates verify-email auto sign-in that redirects to its callback too", async () => {
    const { t, userId } = await twoFactor.enrolled({
      emailVerification: { autoSignInAfterVerification: true },
    });
    await new TestBrowser(t.auth).post("/send-verification-email", { email: EMAIL, callbackURL: "/home" });
    const link = /https?:\/\/\S+verify-email\S+/.exec(t.outbox.latestTo(EMAIL)?.text ?? "")?.[0] ?? "";
    const visitor = new TestBrowser(t.auth);
    const before = await sessionsOf(t, userId);
    const res = await visitor.get(link);
    expect([res.status, res.headers.get("location")]).toEqual([302, "/home"]);
    expect(visitor.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(visitor.cookies.has(CHALLENGE_COOKIE)).toBe(true);
    expect(await sessionsOf(t, userId)).toBe(before);
  });

  it("a wrong password still answers the sign-in error, with no challenge", async () => {
    const { t } = await twoFactor.enrolled();
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/email", { email: EMAIL, password: "wrong password!" });
    expect(res.status).toBe(401);
    expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(false);
    expect(await rowsLike(t, "two-factor-challenge:")).toEqual([]);
  });

  it("a password reset does not bypass the second factor (docs/security.md)", async () => {
    const { t, userId } = await twoFactor.enrolled();
    await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    const link = /https?:\/\/\S+reset-password\/(\S+?)\?/.exec(t.outbox.latestTo(EMAIL)?.text ?? "");
    const token = link?.[1] ?? "";
    const reset = await new TestBrowser(t.auth).post("/reset-password", {
      token,
      newPassword: "a brand new password",
    });
    expect(reset.status).toBe(200);
    const before = await sessionsOf(t, userId);
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/email", { email: EMAIL, password: "a brand new password" });
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(await sessionsOf(t, userId)).toBe(before);
  });
});

describe("attempt limits", () => {
  it("allows 5 attempts per challenge; the 6th answers too-many-attempts even with the right code", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    for (let i = 0; i < 5; i++) {
      const res = await browser.post("/two-factor/verify-totp", { code: wrongCode(code()) });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_CODE });
    }
    const sixth = await browser.post("/two-factor/verify-totp", { code: code() });
    expect({ status: sixth.status, body: sixth.body }).toEqual({ status: 400, body: ERR.TOO_MANY });
    const backup = await browser.post("/two-factor/verify-backup-code", { code: "aaaaa-aaaaa" });
    expect(backup.body).toEqual(ERR.TOO_MANY);
    expect(await sessionsOf(t, userId)).toBe(1);
    // A new sign-in is a new challenge.
    const fresh = await challengedBrowser(t);
    expect((await fresh.post("/two-factor/verify-totp", { code: code() })).status).toBe(200);
  });

  it("a parallel burst of 20 wrong codes on one challenge tests at most 5 of them", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => browser.post("/two-factor/verify-totp", { code: wrongCode(code()) })),
    );
    const codes = answers.map((res) => (res.body as { code: string }).code);
    expect(codes.filter((c) => c === "INVALID_CODE")).toHaveLength(5);
    expect(codes.filter((c) => c === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE")).toHaveLength(15);
    expect(await rowsLike(t, "two-factor-attempt:")).toHaveLength(5);
  });

  it("locks the user after 10 failed attempts in 15 minutes, across challenges, then lifts", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    for (const _ of [1, 2]) {
      const browser = await challengedBrowser(t);
      for (let i = 0; i < 5; i++) await browser.post("/two-factor/verify-totp", { code: wrongCode(code()) });
    }
    const third = await challengedBrowser(t);
    const locked = await third.post("/two-factor/verify-totp", { code: code() });
    expect({ status: locked.status, body: locked.body }).toEqual({ status: 429, body: ERR.LOCKED });
    const retryAfter = Number(locked.headers.get("x-retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(await sessionsOf(t, userId)).toBe(1);
    t.advance(900);
    const later = await challengedBrowser(t);
    expect((await later.post("/two-factor/verify-totp", { code: code() })).status).toBe(200);
  });

  it("15 parallel wrong codes over 3 challenges: exactly 10 tested, 5 locked out", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browsers = [await challengedBrowser(t), await challengedBrowser(t), await challengedBrowser(t)];
    const answers = await Promise.all(
      browsers.flatMap((browser) =>
        Array.from({ length: 5 }, () => browser.post("/two-factor/verify-totp", { code: wrongCode(code()) })),
      ),
    );
    const codes = answers.map((res) => (res.body as { code: string }).code);
    expect(codes.filter((c) => c === "INVALID_CODE")).toHaveLength(10);
    expect(codes.filter((c) => c === "ACCOUNT_TEMPORARILY_LOCKED")).toHaveLength(5);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toHaveLength(10);
  });

  it("a success clears the user's failures (only consecutive failures add up)", async () => {
    const { t, code } = await twoFactor.enrolled();
    const first = await challengedBrowser(t);
    for (let i = 0; i < 4; i++) await first.post("/two-factor/verify-totp", { code: wrongCode(code()) });
    expect((await first.post("/two-factor/verify-totp", { code: code() })).status).toBe(200);
    expect(await rowsLike(t, "two-factor-user-attempt:")).toEqual([]);
  });
});
