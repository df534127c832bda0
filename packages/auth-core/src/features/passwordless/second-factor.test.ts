import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import { mailedSignIn, PASSWORDLESS } from "#test/passwordless.ts";
import {
  CHALLENGE_COOKIE,
  challengedBrowser,
  EMAIL,
  rowsLike,
  sessionsOf,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";

const fixtures = useTwoFactorFixtures();

/** Ada, two-factor on and her address verified, asks for a sign-in mail. */
async function adaWithMail() {
  const enrolled = await fixtures.enrolled(PASSWORDLESS);
  await enrolled.t.db
    .collection("users")
    .updateOne({ _id: enrolled.userId }, { $set: { emailVerified: true } });
  const res = await new TestBrowser(enrolled.t.auth).post("/sign-in/magic-link", { email: EMAIL });
  expect(res.status).toBe(200);
  return { ...enrolled, mail: mailedSignIn(enrolled.t, EMAIL) };
}

describe("a two-factor user signing in by mail", () => {
  it("by code gets the challenge, not a session; the TOTP code then completes it", async () => {
    const { t, userId, mail, code } = await adaWithMail();
    const before = await sessionsOf(t, userId);
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/email-otp", { email: EMAIL, otp: mail.code });
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(true);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionsOf(t, userId)).toBe(before);
    const verified = await browser.post("/two-factor/verify-totp", { code: code() });
    expect(verified.status).toBe(200);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
  });

  it("by the link's confirmation goes to the two-factor page with its destination", async () => {
    const { t, userId, mail } = await adaWithMail();
    const before = await sessionsOf(t, userId);
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/magic-link/verify", { token: mail.token, callbackURL: "/home" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(
      "/two-factor?twoFactorRedirect=true&twoFactorMethods=totp%2Cotp&callbackURL=%2Fhome",
    );
    expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(true);
    expect(await sessionsOf(t, userId)).toBe(before);
  });
});

describe("the mailbox owner taking over an unverified account a stranger enrolled in two-factor", () => {
  it("gets a session by code, and the stranger's secret, backup codes and trusted device are gone", async () => {
    // The stranger registered Ada's address (never verified), enrolled a TOTP and trusted a device.
    const { t, userId, code } = await fixtures.enrolled(PASSWORDLESS);
    const stranger = await challengedBrowser(t);
    expect((await stranger.post("/two-factor/verify-totp", { code: code(), trustDevice: true })).status).toBe(
      200,
    );
    const user = userId.toHexString();
    expect(await rowsLike(t, `two-factor-trust:${user}:`)).toHaveLength(1);

    expect((await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: EMAIL })).status).toBe(200);
    const owner = new TestBrowser(t.auth);
    const res = await owner.post("/sign-in/email-otp", { email: EMAIL, otp: mailedSignIn(t, EMAIL).code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      user: { email: EMAIL, emailVerified: true },
    });
    expect(owner.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(owner.cookies.has(CHALLENGE_COOKIE)).toBe(false);

    expect(await t.db.collection("twoFactors").countDocuments({ userId })).toBe(0);
    const after = await t.db.collection("users").findOne({ _id: userId });
    expect(after?.twoFactorEnabled === true).toBe(false);
    expect(await rowsLike(t, `two-factor-trust:${user}:`)).toHaveLength(0);
    // The owner's session is the account's only one: the stranger's ended.
    expect(await sessionsOf(t, userId)).toBe(1);
  });
});
