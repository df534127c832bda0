import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { mailedSignIn } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const { t, openAuth } = useTestAuthPerTest();

/**
 * The database commands of a code sign-in with magic links off (the bench's "code sign-in" row,
 * docs/scale.md): each is a round trip on every sign-in, so the count is kept here.
 */
describe("a code sign-in's database commands", () => {
  it("costs 4 commands to mail the code and 9 to sign in with it (no link row, one insert for the first try)", async () => {
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
    expect(mailing).toEqual([
      "find:emailClaims",
      "find:users",
      "delete:verifications",
      "insert:verifications",
    ]);
    expect(signingIn).toEqual([
      "find:emailClaims",
      "find:users",
      "find:verifications",
      "find:verifications",
      "insert:verifications",
      "insert:verifications",
      "delete:verifications",
      "delete:verifications",
      "insert:sessions",
    ]);
  });
});
