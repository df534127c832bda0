import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { mailedSignIn } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const { t, openAuth } = useTestAuthPerTest();

/**
 * The database commands of a code sign-in with magic links off (the bench's "code sign-in" row,
 * docs/scale.md): each is a round trip on every sign-in, so the count is kept here. Commands sent
 * together (Promise.all) are compared as a set: their order on the wire is not the code's.
 */
describe("a code sign-in's database commands", () => {
  it("costs 3 commands to mail the code (2 round trips) and 7 in 5 round trips to sign in with it (no link row, one insert for the try, nothing written to a clean throttle, the user read by id after the compare, the domain's policy beside the record)", async () => {
    await openAuth({ emailOTP: { enabled: true }, mailLimit: { kinds: { "sign-in-link": false } } });
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const browser = new TestBrowser(t.auth);
    const mailing = await t.commands(async () => {
      const res = await browser.post("/email-otp/send-verification-otp", { email: EMAIL, type: "sign-in" });
      expect(res.status).toBe(200);
    });
    const { code } = mailedSignIn(t, EMAIL);
    const signingIn = await t.commands(async () => {
      const res = await browser.post("/sign-in/email-otp", { email: EMAIL, otp: code });
      expect(res.status).toBe(200);
    });
    // The address's user (whether a code goes, and whose account the record names: one read on the
    // unique email index) and the require-SSO read of its domain go together (Promise.all):
    // compared as a set.
    expect(mailing.slice(0, 2).sort()).toEqual(["find:organizationDomains", "find:users"]);
    expect(mailing.slice(2)).toEqual(["update:verifications"]); // the record replaced (one upsert)
    expect(signingIn).toHaveLength(7);
    // The record and the require-SSO read of its domain (features/sso-domains: one read on the unique
    // verifiedKey index) go together: the policy is read beside the record, awaited after the code.
    expect(signingIn.slice(0, 2).sort()).toEqual(["find:organizationDomains", "find:verifications"]);
    expect(signingIn.slice(2, 4)).toEqual([
      "find:verifications", // the account's throttle rows (none: nothing to wait for, nothing to clear)
      "insert:verifications", // the code's try
    ]);
    // After the right compare, together: the record taken, the user read by id.
    expect(signingIn.slice(4, 6).sort()).toEqual(["delete:verifications", "find:users"]);
    expect(signingIn.slice(6)).toEqual(["insert:sessions"]);
  });
});
