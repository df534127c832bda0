import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { errorOf, genericConfig, newBrowser, providerConfig, runSocialFlow } from "#test/social.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";
import { PROVIDER_IDS } from "./providers/types.ts";

/**
 * Full flows over real HTTP for every provider of docs/decisions/ and a generic OIDC provider (by discovery),
 * each answered in its own documented shapes by tests/support/oauth-server.ts: sign-up, sign-in
 * again, link to a signed-in user, unlink. Providers that never give an email (TikTok, Reddit,
 * Roblox) cannot sign up (email_not_found, the error catalogue) but can be linked.
 */
const NO_EMAIL = new Set(["tiktok", "reddit", "roblox"]);
const GENERIC = "acme-oidc";
const ALL = [...PROVIDER_IDS, GENERIC];
/** The provider's own account id for a person (Dropbox prefixes its ids). */
const providerAccountId = (id: string, person: string) => (id === "dropbox" ? `dbid:${person}` : person);

let server: OAuthServer;
/** Default linking rules: sign-up and sign-in. */
let t: TestAuth;
/** Trusts every provider and allows different emails: linking works whatever a provider reports. */
let linking: TestAuth;

beforeAll(async () => {
  server = await startOAuthServer();
  const socialProviders = Object.fromEntries(PROVIDER_IDS.map((id) => [id, providerConfig(server, id)]));
  const genericOAuth = [genericConfig(server, GENERIC)];
  t = await createTestAuth({ socialProviders, genericOAuth });
  linking = await createTestAuth({
    socialProviders,
    genericOAuth,
    account: { accountLinking: { trustedProviders: [...ALL], allowDifferentEmails: true } },
  });
});
afterAll(async () => {
  await t.close();
  await linking.close();
  await server.close();
});

describe.each(ALL.map((id, index) => [id, index] as const))("%s", (id, index) => {
  const accountId = String(700_000 + index);
  const email = `${id}.person@example.com`;

  it(
    NO_EMAIL.has(id)
      ? "cannot sign up without an email (email_not_found)"
      : "signs up, then signs in to the same user",
    async () => {
      server.setIdentity(id, { id: accountId, email, emailVerified: true, name: "Flow Person", image: null });
      const browser = newBrowser(t);
      const first = await runSocialFlow(browser, server, {
        provider: id,
        callbackURL: "/home",
        newUserCallbackURL: "/welcome",
        errorCallbackURL: "/oops",
      });
      if (NO_EMAIL.has(id)) {
        expect(first.location).toBe("/oops?error=email_not_found");
        expect(await t.db.collection("accounts").countDocuments({ providerId: id })).toBe(0);
        return;
      }
      expect(first.location).toBe("/welcome");
      expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
      const user = await t.db.collection("users").findOne({ email });
      expect(user?.name).toBeTruthy();
      const accounts = await t.db.collection("accounts").find({ providerId: id }).toArray();
      expect(accounts).toHaveLength(1);
      expect(accounts[0]?.userId.equals(user?._id)).toBe(true);
      expect(accounts[0]?.accountId).toBe(providerAccountId(id, accountId));
      expect(accounts[0]?.accessToken).toMatch(/^v1\./);

      const again = newBrowser(t);
      const second = await runSocialFlow(again, server, {
        provider: id,
        callbackURL: "/home",
        newUserCallbackURL: "/welcome",
      });
      expect(second.location).toBe("/home");
      const session = await again.get<{ user: { id: string } }>("/get-session");
      expect(session.body.user.id).toBe(user?._id.toHexString());
      expect(await t.db.collection("users").countDocuments({ email })).toBe(1);
    },
  );

  it("links to a signed-in user, signs in through the link, unlinks", async () => {
    server.setIdentity(id, { id: accountId, email, emailVerified: true, name: "Flow Person", image: null });
    const browser = newBrowser(linking);
    const owner = `${id}.owner@example.com`;
    await signUp(browser, { email: owner });
    const flow = await runSocialFlow(
      browser,
      server,
      { provider: id, callbackURL: "/settings", errorCallbackURL: "/oops" },
      "/link-social",
    );
    expect(errorOf(flow.location).error).toBeNull();
    expect(flow.location).toBe("/settings");
    const list = await browser.get<Array<{ provider: string; accountId: string }>>("/list-accounts");
    expect(list.body.map((a) => a.provider).sort()).toEqual(["credential", id].sort());
    const linked = list.body.find((a) => a.provider === id);
    expect(linked?.accountId).toBe(providerAccountId(id, accountId));
    // The linked identity now signs in as its owner — also from providers that give no email.
    const returning = newBrowser(linking);
    const signIn = await runSocialFlow(returning, server, { provider: id, callbackURL: "/home" });
    expect(signIn.location).toBe("/home");
    const session = await returning.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe(owner);
    const unlink = await browser.post("/unlink-account", { providerId: id });
    expect(unlink.body).toEqual({ status: true });
    expect(await linking.db.collection("accounts").countDocuments({ providerId: id })).toBe(0);
  });
});
