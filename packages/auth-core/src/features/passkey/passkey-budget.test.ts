import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { authenticateOptions, newAuthenticator, registerPasskey } from "#test/passkey.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Database commands per passkey request (docs/architecture.md: count them and keep the count in a
 * test); each query is by an index (`_id`, `credentialID`, `userId`). Rate limiting is off here.
 */
const freshTestAuth = useFreshTestAuth();

describe("database commands of the passkey paths", () => {
  it("sign-in options: none (the challenge travels in its signed cookie; autofill asks on every page view)", async () => {
    const t = await freshTestAuth();
    const commands = await t.commands(() => authenticateOptions(new TestBrowser(t.auth)));
    expect(commands).toEqual([]);
  });

  it("a passkey sign-in: the challenge, the passkey, its use, the user, the session", async () => {
    const t = await freshTestAuth();
    const ada = await signUpUser(t, { email: "ada@example.com" });
    const authenticator = newAuthenticator();
    await registerPasskey(ada.browser, authenticator);
    const browser = new TestBrowser(t.auth);
    const options = await authenticateOptions(browser);
    const response = authenticator.getAssertion(options.body);
    const commands = await t.commands(() => browser.post("/passkey/verify-authentication", { response }));
    expect(commands).toEqual([
      "insert:verifications", // the claim that makes the cookie's challenge single-use
      "find:passkeys",
      "update:passkeys", // counter, backup state, last use
      "find:users",
      "find:organizationDomains", // require SSO on the user's domain (features/sso-domains), unique index
      "insert:sessions",
    ]);
  });
});
