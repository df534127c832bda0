import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { challengedBrowser, EMAIL, ERR, PASSWORD, rowsLike, useTwoFactorFixtures } from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

/**
 * A new password ends what the old one started (forgetSecondFactorSessions, called by
 * features/password and by admin/set-user-password): the user's trusted devices and pending
 * sign-in challenges.
 */
const NEW_PASSWORD = "a brand new password";

/** Ada with a trusted device and, on another browser, a pending challenge won with the password. */
async function setUp() {
  const value = await twoFactor.enrolled();
  const { t, code } = value;
  const trusted = await challengedBrowser(t);
  expect((await trusted.post("/two-factor/verify-totp", { code: code(), trustDevice: true })).status).toBe(
    200,
  );
  const pending = await challengedBrowser(t);
  t.advance(30);
  const user = value.userId.toHexString();
  expect(await rowsLike(t, `two-factor-trust:${user}:`)).toHaveLength(1);
  expect(await rowsLike(t, `two-factor-challenge:${user}:`)).toHaveLength(1);
  return { ...value, trusted, pending, user };
}

async function expectForgotten(value: Awaited<ReturnType<typeof setUp>>, password: string) {
  const { t, user, pending, code } = value;
  expect(await rowsLike(t, `two-factor-trust:${user}:`)).toEqual([]);
  expect(await rowsLike(t, `two-factor-challenge:${user}:`)).toEqual([]);
  const res = await pending.post("/two-factor/verify-totp", { code: code() });
  expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
  // The once-trusted device is challenged again.
  const again = await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password });
  expect(again.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
  const device = await value.trusted.post("/sign-in/email", { email: EMAIL, password });
  expect(device.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
}

describe("a new password and the second factor", () => {
  it("a password reset forgets trusted devices and pending challenges", async () => {
    const value = await setUp();
    const { t } = value;
    await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    const token = /reset-password\/(\S+?)\?/.exec(t.outbox.latestTo(EMAIL)?.text ?? "")?.[1] ?? "";
    const reset = await new TestBrowser(t.auth).post("/reset-password", { token, newPassword: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    await expectForgotten(value, NEW_PASSWORD);
  });

  it("change-password with revokeOtherSessions forgets them; without it they stay", async () => {
    const value = await setUp();
    const { t, ada, user } = value;
    const kept = await ada.post("/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(kept.status).toBe(200);
    expect(await rowsLike(t, `two-factor-trust:${user}:`)).toHaveLength(1);
    expect(await rowsLike(t, `two-factor-challenge:${user}:`)).toHaveLength(1);
    const res = await ada.post("/change-password", {
      currentPassword: NEW_PASSWORD,
      newPassword: PASSWORD,
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    await expectForgotten(value, PASSWORD);
  });

  it("an admin's set-user-password forgets them too; the set password answers PASSWORD_RESET_REQUIRED before any challenge", async () => {
    const value = await setUp();
    const { t, user, pending, code } = value;
    const admin = await signUpPerson(t, "admin", "admin");
    const set = await admin.browser.post("/admin/set-user-password", {
      userId: user,
      newPassword: NEW_PASSWORD,
    });
    expect(set.status).toBe(200);
    expect(await rowsLike(t, `two-factor-trust:${user}:`)).toEqual([]);
    expect(await rowsLike(t, `two-factor-challenge:${user}:`)).toEqual([]);
    // The challenge won with the old password cannot be finished any more.
    const res = await pending.post("/two-factor/verify-totp", { code: code() });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
    expect(await t.db.collection("sessions").countDocuments({ userId: value.userId })).toBe(0);
    const again = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: EMAIL,
      password: NEW_PASSWORD,
    });
    expect(again).toMatchObject({ status: 403, body: { code: "PASSWORD_RESET_REQUIRED" } });
  });
});
