import type { AuthOptions } from "@tessera/auth-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { createSocialAuth, newBrowser, runSocialFlow } from "#test/social.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";

/**
 * Review s9 finding 9, the after-hook contract of config/hooks.ts: an update's `after` hook sees the
 * stored document — not the fields just written — for a password change and for fresh provider
 * tokens, at no extra database command; and a session refresh reports only a write that happened.
 */
type Overrides = Omit<Partial<AuthOptions>, "database">;

let t: TestAuth | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PASSWORD = "correct horse battery";
const changePassword = (browser: TestBrowser) =>
  browser.post("/change-password", { currentPassword: PASSWORD, newPassword: "another horse battery" });

describe("account update after hooks see the stored account", () => {
  it("a password change: the whole stored credential account, as the database has it", async () => {
    const seen: unknown[] = [];
    t = await createTestAuth({ hooks: { account: { update: { after: (doc) => void seen.push(doc) } } } });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    expect((await changePassword(browser)).status).toBe(200);
    const stored = await t.db.collection("accounts").findOne({ providerId: "credential" });
    // The events outbox (`_events`, features/events) is the relay's, not the app's: the hook sees the
    // account without it, whether or not the relay has emptied it yet.
    const { _events, ...account } = stored ?? { _events: undefined };
    expect(seen).toEqual([account]);
    expect(seen[0]).not.toHaveProperty("_events");
    expect(account).toMatchObject({ providerId: "credential", accountId: String(stored?.userId) });
  });

  it("a password change costs the same database commands with an after hook as without", async () => {
    const count = async (overrides: Overrides) => {
      const auth = await createTestAuth(overrides);
      try {
        const browser = new TestBrowser(auth.auth);
        await signUp(browser);
        return (await auth.commands(() => changePassword(browser))).length;
      } finally {
        await auth.close();
      }
    };
    const without = await count({});
    const withHook = await count({ hooks: { account: { update: { after: () => {} } } } });
    expect(withHook).toBe(without);
  });

  describe("fresh provider tokens on a returning social sign-in", () => {
    let server: OAuthServer;
    beforeAll(async () => {
      server = await startOAuthServer();
    });
    afterAll(() => server.close());

    it("the after hook gets the stored provider account; the token write stays one command", async () => {
      const seen: unknown[] = [];
      t = await createSocialAuth(server, ["github"], {
        hooks: { account: { update: { after: (doc) => void seen.push(doc) } } },
      });
      server.setIdentity("github", {
        id: "8001",
        email: "grace@example.com",
        emailVerified: true,
        name: "Grace",
        image: null,
      });
      await runSocialFlow(newBrowser(t), server, { provider: "github", callbackURL: "/home" });
      expect(seen).toEqual([]);
      const signInAgain = () =>
        runSocialFlow(newBrowser(t!), server, { provider: "github", callbackURL: "/home" });
      const commands = await t.commands(signInAgain);
      const stored = await t.db.collection("accounts").findOne({ providerId: "github" });
      expect(seen).toEqual([stored]);
      expect(stored).toMatchObject({ accountId: "8001", userId: expect.anything() });
      // The write that returns the document replaces the plain update: one command either way.
      expect(commands.filter((command) => command.endsWith(":accounts"))).toEqual([
        "find:accounts",
        "findAndModify:accounts",
      ]);
    });
  });
});
