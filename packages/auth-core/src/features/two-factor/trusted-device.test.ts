import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import {
  CHALLENGE_COOKIE,
  challengedBrowser,
  codeAt,
  EMAIL,
  PASSWORD,
  rowsLike,
  sessionsOf,
  TRUST_COOKIE,
  totpFromURI,
  useTwoFactorFixtures,
} from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

/** Signs in on `browser` with the password; true when a session came straight back. */
async function signInGetsSession(browser: TestBrowser, email = EMAIL): Promise<boolean> {
  const res = await browser.post<{ token?: string; twoFactorRedirect?: boolean }>("/sign-in/email", {
    email,
    password: PASSWORD,
  });
  expect(res.status).toBe(200);
  return typeof res.body.token === "string" && browser.cookies.has(SESSION_COOKIE);
}

describe("trusted devices", () => {
  it("trustDevice sets a signed 30-day cookie; the next sign-ins on that device skip the challenge", async () => {
    const { t, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const res = await browser.post("/two-factor/verify-totp", { code: code(), trustDevice: true });
    expect(res.status).toBe(200);
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${TRUST_COOKIE}=`));
    expect(line).toMatch(/; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await rowsLike(t, `two-factor-trust:${userId.toHexString()}:`)).toHaveLength(1);
    // Survives sign-out (it is not a session cookie).
    await browser.post("/sign-out", {});
    expect(browser.cookies.has(TRUST_COOKIE)).toBe(true);
    const before = await sessionsOf(t, userId);
    expect(await signInGetsSession(browser)).toBe(true);
    expect(browser.cookies.has(CHALLENGE_COOKIE)).toBe(false);
    expect(await sessionsOf(t, userId)).toBe(before + 1);
    // Another device is still challenged.
    expect(await signInGetsSession(new TestBrowser(t.auth))).toBe(false);
  });

  it("stops skipping after 30 days", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    await browser.post("/two-factor/verify-totp", { code: code(), trustDevice: true });
    t.advance(30 * 86400 + 1);
    const res = await browser.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
  });

  it("is bound to its user: another two-factor user signing in on the device is challenged", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    await browser.post("/two-factor/verify-totp", { code: code(), trustDevice: true });
    const trust = browser.cookies.get(TRUST_COOKIE)!;
    // Bob enrolls too, on his own browser.
    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com", password: PASSWORD });
    const enable = await bob.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
    const secret = totpFromURI(enable.body.totpURI);
    expect((await bob.post("/two-factor/verify-totp", { code: codeAt(secret, t.now()) })).status).toBe(200);
    // Bob on Ada's trusted device.
    const shared = new TestBrowser(t.auth);
    shared.cookies.set(TRUST_COOKIE, trust);
    expect(await signInGetsSession(shared, "bob@example.com")).toBe(false);
    // A forged trust cookie is ignored as well.
    const forged = new TestBrowser(t.auth);
    forged.cookies.set(TRUST_COOKIE, `${trust.slice(0, -2)}xx`);
    expect(await signInGetsSession(forged)).toBe(false);
  });

  it("disable revokes every trusted device of the user", async () => {
    const { t, ada, userId, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    await browser.post("/two-factor/verify-totp", { code: code(), trustDevice: true });
    expect((await ada.post("/two-factor/disable", { password: PASSWORD })).status).toBe(200);
    expect(await rowsLike(t, `two-factor-trust:${userId.toHexString()}:`)).toEqual([]);
    // Re-enrolled: the old device's cookie no longer skips the challenge.
    const enable = await ada.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
    t.advance(30);
    const secret = totpFromURI(enable.body.totpURI);
    expect((await ada.post("/two-factor/verify-totp", { code: codeAt(secret, t.now()) })).status).toBe(200);
    expect(browser.cookies.has(TRUST_COOKIE)).toBe(true);
    await browser.post("/sign-out", {});
    expect(await signInGetsSession(browser)).toBe(false);
  });
});
