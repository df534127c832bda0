import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import type { TestAuth } from "#test/test-auth.ts";
import { EMAIL, PASSWORD, useTwoFactorFixtures } from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

/**
 * Security-hardening finding 8 (ASVS 7.4.3, docs/security.md "Enabling two-factor"): confirming a
 * second factor ends the user's other sessions — one opened elsewhere with the password alone must
 * not outlive the factor that now guards the account. The confirming session stays signed in.
 */

async function signInElsewhere(t: TestAuth): Promise<TestBrowser> {
  const browser = new TestBrowser(t.auth);
  const res = await browser.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
  expect(res.status).toBe(200);
  return browser;
}

describe("confirming two-factor ends the user's other sessions", () => {
  it("the other session's get-session answers null and its row is gone; the confirming one stays", async () => {
    const pending = await twoFactor.pending({ session: { cookieCache: { enabled: true } } });
    const { t, ada, userId } = pending;
    const elsewhere = await signInElsewhere(t);
    const otherToken = elsewhere.cookies.get(SESSION_COOKIE)!.split(".")[0];
    const adaToken = ada.cookies.get(SESSION_COOKIE)!.split(".")[0];
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(2);

    const confirmed = await ada.post<{ token: string }>("/two-factor/verify-totp", { code: pending.code() });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.token).toBe(adaToken);
    expect((await t.db.collection("users").findOne({ _id: userId }))?.twoFactorEnabled).toBe(true);

    const sessions = await t.db.collection("sessions").find({ userId }).toArray();
    expect(sessions.map((session) => session.token)).toEqual([adaToken]);
    expect(await t.db.collection("sessions").countDocuments({ token: otherToken })).toBe(0);
    const other = await elsewhere.get("/get-session?disableCookieCache=true");
    expect({ status: other.status, body: other.body }).toEqual({ status: 200, body: null });
    const own = await ada.get<{ session: { token: string } }>("/get-session");
    expect(own.status).toBe(200);
    expect(own.body.session.token).toBe(adaToken);
    expect(t.outbox.messages()).toEqual([]);
  });

  it("checking a code once two-factor is on ends nothing", async () => {
    const enrolled = await twoFactor.enrolled();
    const { t, ada, userId } = enrolled;
    // A second sign-in now passes the challenge (the trusted device is not set): it is a second session.
    const second = new TestBrowser(t.auth);
    await second.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    await second.post("/two-factor/verify-totp", { code: enrolled.code() });
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(2);
    t.advance(30);
    const checked = await ada.post("/two-factor/verify-totp", { code: enrolled.code() });
    expect(checked.status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(2);
  });
});
