import { beforeEach, describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { mailedSignIn, PASSWORDLESS } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Database commands per passwordless request (docs/architecture.md), named `command:collection`.
 * Rate limiting is off so the count is the endpoint's own. A code sign-in's: code-sign-in-commands.test.ts.
 */
const EMAIL = "ada@example.com";
/** findUserByEmail: one read on the unique email index. */
const USER_BY_EMAIL = ["find:users"];

const { t, openAuth } = useTestAuthPerTest();
beforeEach(async () => {
  await openAuth(PASSWORDLESS);
  await signUpUser(t, { email: EMAIL, emailVerified: true });
});

describe("database commands per request", () => {
  it("a sign-in mail: the user, the mail limit's two slots, the record replaced with the link's row in one command", async () => {
    const commands = await t.commands(() =>
      new TestBrowser(t.auth).post("/sign-in/magic-link", { email: EMAIL }),
    );
    // The user lookup, the mail limit's slots and the require-SSO read go together (Promise.all):
    // compared as a set.
    expect(commands.slice(0, 4).sort()).toEqual(
      [
        ...USER_BY_EMAIL,
        "insert:mailLimits", // the sender's slot for the mailbox
        "insert:mailLimits", // the mailbox's slot from everyone
        "find:organizationDomains", // require SSO on the address's domain (features/sso-domains)
      ].sort(),
    );
    // The new record replacing the address's previous one and the link's row: two upserts, one command.
    expect(commands.slice(4)).toEqual(["update:verifications"]);
  });

  it("the link's GET reads two rows and writes nothing", async () => {
    await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: EMAIL });
    const { url } = mailedSignIn(t, EMAIL);
    const path = url!.slice(url!.indexOf("/magic-link"));
    const commands = await t.commands(() => new TestBrowser(t.auth).get(path));
    expect(commands).toEqual(["find:verifications", "find:verifications"]);
  });
});
