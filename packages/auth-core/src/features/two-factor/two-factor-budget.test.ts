import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import { challengedBrowser, EMAIL, PASSWORD, useTwoFactorFixtures } from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

/**
 * Database commands per two-factor request (docs/architecture.md: count them and keep the count in a test).
 * Rate limiting is off here (createTestAuth); its cost is the session budget test's concern.
 */
const freshTestAuth = useFreshTestAuth();

describe("database commands of the two-factor paths", () => {
  it("the gate costs a user without two-factor nothing", async () => {
    const t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth), { email: EMAIL, password: PASSWORD });
    const commands = await t.commands(() =>
      new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password: PASSWORD }),
    );
    expect(commands).toEqual([
      "find:users", // the user by address, on the unique email index (docs/scale.md)
      "find:accounts",
      // The per-account sign-in throttle: lane read, the attempt's slot, the success's clear.
      "find:verifications",
      "insert:verifications",
      "delete:verifications",
      "find:organizationDomains", // require-SSO on the address's domain (features/sso-domains)
      "insert:sessions",
    ]);
  });

  it("a challenged sign-in stores the challenge instead of a session", async () => {
    const { t } = await twoFactor.enrolled();
    const commands = await t.commands(() =>
      new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password: PASSWORD }),
    );
    expect(commands).toEqual([
      "find:users", // the user by address, on the unique email index (docs/scale.md)
      "find:accounts",
      "find:verifications", // the sign-in throttle (features/sign-in-throttle), as above
      "insert:verifications",
      "delete:verifications",
      "find:organizationDomains", // require-SSO, before the gate
      "insert:verifications",
    ]);
  });

  it("verify-totp that completes a sign-in", async () => {
    const { t, code } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const commands = await t.commands(() => browser.post("/two-factor/verify-totp", { code: code() }));
    expect(commands).toEqual([
      "find:verifications", // the challenge
      "find:verifications", // its attempt slots
      "insert:verifications", // one slot
      "find:verifications", // the user's attempt slots
      "insert:verifications", // one slot
      "find:twoFactors",
      "insert:verifications", // the used TOTP step (replay refusal)
      "delete:verifications", // the challenge consumed
      "find:users",
      "delete:verifications", // the user's attempt slots cleared
      "insert:sessions",
    ]);
  });

  it("a wrong code stops after the code check", async () => {
    const { t } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const commands = await t.commands(() =>
      browser.post("/two-factor/verify-backup-code", { code: "aaaaa-aaaaa" }),
    );
    expect(commands).toEqual([
      "find:verifications",
      "find:verifications",
      "insert:verifications",
      "find:verifications",
      "insert:verifications",
      "find:twoFactors",
    ]);
  });

  it("verify-totp with a session (no challenge) draws on the session's allowance, not the user's", async () => {
    const { t, ada, code } = await twoFactor.enrolled();
    const commands = await t.commands(() => ada.post("/two-factor/verify-totp", { code: code() }));
    expect(commands).toEqual([
      "find:sessions", // the caller (sensitive: never the cookie cache)
      "find:users",
      "find:twoFactors",
      "find:verifications", // the session's attempt slots
      "insert:verifications", // one slot
      "insert:verifications", // the used TOTP step
      "delete:verifications", // the session's and the user's attempt slots cleared
    ]);
  });

  it("verify-backup-code that completes a sign-in", async () => {
    const { t, backupCodes } = await twoFactor.enrolled();
    const browser = await challengedBrowser(t);
    const commands = await t.commands(() =>
      browser.post("/two-factor/verify-backup-code", { code: backupCodes[0] }),
    );
    expect(commands).toEqual([
      "find:verifications",
      "find:verifications",
      "insert:verifications",
      "find:verifications",
      "insert:verifications",
      "find:twoFactors",
      "insert:verifications", // the code's used marker
      "delete:verifications", // the challenge consumed
      "find:users",
      "delete:verifications", // the user's attempt slots cleared
      "insert:sessions",
    ]);
  });
});
