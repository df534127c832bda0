import { beforeEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Database commands per password and email-change request (docs/architecture.md), named `command:collection`.
 * Rate limiting is off so the count is the endpoint's own (session-budget.test.ts measures the limiter).
 * The `delete:verifications` right after a password or address change is the sweep of the user's
 * outstanding reset links (review finding s9-3): one unindexed-by-value delete, once per change.
 */
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery";
const SESSION_READ = ["find:sessions", "find:users"];
const RESET_LINK_SWEEP = "delete:verifications";
/** A new password clears the user's failed sign-ins (features/sign-in-throttle). */
const THROTTLE_CLEAR = "delete:verifications";

const { t, openAuth } = useTestAuthPerTest();
let ada: TestBrowser;
beforeEach(async () => {
  // Better Auth's change-email flow: the budget of an unverified address that moves at once.
  await openAuth({ user: { changeEmail: { enabled: true, verifyNewEmailFirst: false } } });
  ada = new TestBrowser(t.auth);
  await signUp(ada, { email: EMAIL, password: PASSWORD });
});

describe("database commands per request", () => {
  it("change-password: the session, the credential account, its update, the reset-link sweep", async () => {
    const commands = await t.commands(() =>
      ada.post("/change-password", { currentPassword: PASSWORD, newPassword: "new staple password" }),
    );
    expect(commands).toEqual([
      ...SESSION_READ,
      "find:accounts",
      "update:accounts",
      THROTTLE_CLEAR,
      RESET_LINK_SWEEP,
    ]);
  });

  it("change-password with revokeOtherSessions: one delete ends the other sessions and the impersonations", async () => {
    const commands = await t.commands(() =>
      ada.post("/change-password", {
        currentPassword: PASSWORD,
        newPassword: "new staple password",
        revokeOtherSessions: true,
      }),
    );
    expect(commands).toEqual([
      ...SESSION_READ,
      "find:accounts",
      "update:accounts",
      THROTTLE_CLEAR,
      RESET_LINK_SWEEP,
      "insert:sessions",
      "find:sessions", // deleteAllSessionsOfUser: own sessions and impersonations started, one $or
      "insert:pendingDeletions", // their session.revoked journaled (features/events)
      "delete:sessions",
      "find:apiKeys", // keys minted from a session (none here): signOutEverywhere
      "delete:verifications", // pending two-factor challenges (forgetSecondFactorSessions)
    ]);
  });

  it("change-email of an unverified address (moves at once): the address check, the move, the sweep", async () => {
    const commands = await t.commands(() => ada.post("/change-email", { newEmail: "ada.new@example.com" }));
    expect(commands).toEqual([
      ...SESSION_READ,
      // Is the address taken (the user by address, unique email index).
      "find:users",
      // The new address's link counted against the mail limit (the account's allowance for that
      // address, then the address's) and queued in the outbox before the move (features/mail-outbox
      // linkStored): a crash between leaves a dead link, never a moved address nobody mailed.
      "insert:mailLimits",
      "insert:mailLimits",
      "insert:mails",
      // The new claim, the move, the old claim given up.
      "insert:emailClaims",
      "findAndModify:users",
      "update:listingVersions",
      "distinct:members", // the organizations listing the user, to bump (none here)
      "delete:emailClaims",
      RESET_LINK_SWEEP,
      // The old address's notice counted (its own account's: one slot); it is not queued.
      "insert:mailLimits",
    ]);
  });

  it("reset-password: consume, user, account, update, sweep, unproven accounts and passkeys, two-factor, all sessions", async () => {
    await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    const link = t.outbox.latestTo(EMAIL)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0] ?? "";
    const token = new URL(link).pathname.split("/").pop();
    const commands = await t.commands(() =>
      new TestBrowser(t.auth).post("/reset-password", { newPassword: "new staple password", token }),
    );
    expect(commands).toEqual([
      // The link's user, read before the password rules (its address is a word the password may not
      // be), then the token taken while it still names that user.
      "find:verifications",
      "find:users",
      "find:verifications",
      "delete:verifications",
      "find:accounts",
      "update:accounts",
      THROTTLE_CLEAR,
      RESET_LINK_SWEEP,
      "delete:accounts", // provider identities linked while the address was unproven (H9)
      "delete:passkeys", // passkeys registered while the address was unproven (docs/passkeys.md)
      "delete:verifications", // trusted devices and two-factor challenges (forgetSecondFactorSessions)
      "find:sessions", // deleteAllSessionsOfUser (revokeSessionsOnPasswordReset, on by default)
      "insert:pendingDeletions", // their session.revoked journaled (features/events)
      "delete:sessions",
      "find:apiKeys", // keys minted from a session (none here): signOutEverywhere
    ]);
  });
});
