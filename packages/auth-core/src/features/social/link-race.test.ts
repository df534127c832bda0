import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { countDocs, createSocialAuth, newBrowser, returnToCallback } from "#test/social.ts";
import type { TestAuth } from "#test/test-auth.ts";

/**
 * Concurrent first sign-ins of one person whose email already has a verified user: every one of
 * them links by email or finds the link another made — the unique (providerId, accountId) index
 * decides which inserts, a re-read tells the others it is theirs.
 */
let server: OAuthServer;
let t: TestAuth;

beforeAll(async () => {
  server = await startOAuthServer();
  t = await createSocialAuth(server, ["github"]);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const who = (id: string, email: string) => ({
  id,
  email,
  emailVerified: true,
  name: "Grace Hopper",
  image: null,
});

/** A password user whose address is proven (as the verify-email link would leave it). */
async function passwordUser(email: string, verified: boolean): Promise<void> {
  expect((await signUp(newBrowser(t), { email })).status).toBe(200);
  if (verified) await t.db.collection("users").updateOne({ email }, { $set: { emailVerified: true } });
}

describe("simultaneous first sign-ins that link by email", () => {
  it("six simultaneous first sign-ins linking one verified user by email all succeed, with one account", async () => {
    await passwordUser("together@example.com", true);
    const user = await t.db.collection("users").findOne({ email: "together@example.com" });
    server.setIdentity("github", who("3010", "together@example.com"));
    const browsers = Array.from({ length: 6 }, () => newBrowser(t));
    const starts = await Promise.all(
      browsers.map((browser) =>
        browser.post<{ url: string }>("/sign-in/social", {
          provider: "github",
          callbackURL: "/home",
          errorCallbackURL: "/login",
        }),
      ),
    );
    const authorized = await Promise.all(starts.map((start) => server.authorize(start.body.url)));
    const before = await countDocs(t);
    const results = await Promise.all(
      browsers.map((browser, i) => returnToCallback(browser, authorized[i] as (typeof authorized)[number])),
    );
    expect(results.map((res) => res.headers.get("location"))).toEqual(Array(6).fill("/home"));
    const github = await t.db
      .collection("accounts")
      .find({ providerId: "github", accountId: "3010" })
      .toArray();
    expect(github.map((account) => account.userId.toHexString())).toEqual([user?._id.toHexString()]);
    expect(await countDocs(t)).toEqual({
      users: before.users,
      accounts: before.accounts + 1,
      sessions: before.sessions + 6,
    });
    for (const browser of browsers) {
      const session = await browser.get<{ user: { id: string } }>("/get-session");
      expect(session.body.user.id).toBe(user?._id.toHexString());
    }
  });
});
