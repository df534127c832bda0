import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "#test/browser.ts";
import { type AuthorizeResult, type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { apiPath, createSocialAuth, newBrowser, returnToCallback } from "#test/social.ts";
import type { TestAuth } from "#test/test-auth.ts";

/**
 * Database commands per social request (docs/architecture.md: count them and keep the count in a test). FerretDB
 * v1 scans for every non-_id lookup, so each line here is an indexed query: verifications.identifier,
 * accounts.(providerId, accountId), users.email, accounts.(userId, providerId) — 0001 and 0003.
 * Rate limiting is off (its own cost is kept by session-budget.test.ts).
 */
let server: OAuthServer;
let t: TestAuth;
let browser: TestBrowser;
const SESSION_READ = ["find:sessions", "find:users"];

beforeAll(async () => {
  server = await startOAuthServer();
  t = await createSocialAuth(server, ["github"]);
  browser = newBrowser(t);
  server.setIdentity("github", {
    id: "6001",
    email: "budget@example.com",
    emailVerified: true,
    name: "B",
    image: null,
  });
});
afterAll(async () => {
  await t.close();
  await server.close();
});

async function start(): Promise<AuthorizeResult> {
  let url = "";
  const commands = await t.commands(async () => {
    url = (await browser.post<{ url: string }>("/sign-in/social", { provider: "github" })).body.url;
  });
  expect(commands).toEqual(["insert:verifications"]);
  return server.authorize(url);
}

describe("database commands per social request", () => {
  it("sign-in/social: one insert (the state record)", async () => {
    await start();
  });

  it("callback for a new user: consume state, look up identity and email, insert user, account, session", async () => {
    const authorized = await start();
    const commands = await t.commands(() => returnToCallback(browser, authorized));
    expect(commands).toEqual([
      "find:verifications",
      "delete:verifications",
      "find:accounts",
      "find:users",
      // require-SSO on the address's domain (one indexed read), before anything is written; auto-join
      // reuses what it read (features/sso-domains)
      "find:organizationDomains",
      "insert:emailClaims",
      "update:userTimeline", // the user's timeline entry, before the user (docs/scale.md)
      "insert:users",
      "update:listingVersions",
      "insert:accounts",
      "insert:sessions",
    ]);
  });

  it("callback for a returning user: consume state, identity, user, token update, session", async () => {
    const authorized = await start();
    const commands = await t.commands(() => returnToCallback(browser, authorized));
    expect(commands).toEqual([
      "find:verifications",
      "delete:verifications",
      "find:accounts",
      "find:users",
      "update:accounts",
      "find:organizationDomains", // require-SSO on the returning user's domain, before the session
      "insert:sessions",
    ]);
  });

  it("callback with another browser's state: one lookup, nothing consumed", async () => {
    const authorized = await start();
    const stranger = newBrowser(t);
    const commands = await t.commands(() => returnToCallback(stranger, authorized));
    expect(commands).toEqual(["find:verifications"]);
  });

  it("list-accounts, get-access-token: the session read plus one indexed account query", async () => {
    expect(await t.commands(() => browser.get("/list-accounts"))).toEqual([...SESSION_READ, "find:accounts"]);
    expect(await t.commands(() => browser.post("/get-access-token", { providerId: "github" }))).toEqual([
      ...SESSION_READ,
      "find:accounts",
    ]);
  });

  it("link-social: the session read and the state insert; unlink: the session read, list, delete, recount", async () => {
    expect(await t.commands(() => browser.post("/link-social", { provider: "github" }))).toEqual([
      ...SESSION_READ,
      "insert:verifications",
    ]);
    await t.db.collection("accounts").insertOne({
      providerId: "google",
      accountId: "budget-extra",
      userId: (await t.db.collection("users").findOne({ email: "budget@example.com" }))?._id,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    expect(await t.commands(() => browser.post("/unlink-account", { providerId: "google" }))).toEqual([
      ...SESSION_READ,
      "find:accounts",
      "delete:accounts",
      "aggregate:accounts",
    ]);
  });
});

describe("database commands of Apple's form_post", () => {
  it("the cross-site POST: one update of the live state record; the GET that follows: the usual callback", async () => {
    const apple = await createSocialAuth(server, ["apple"]);
    try {
      server.setIdentity("apple", {
        id: "apple.budget",
        email: "apple.budget@example.com",
        emailVerified: true,
        name: "A B",
        image: null,
      });
      const appleBrowser = newBrowser(apple);
      const url = (await appleBrowser.post<{ url: string }>("/sign-in/social", { provider: "apple" })).body
        .url;
      const authorized = await server.authorize(url);
      let next = "";
      const posted = await apple.commands(async () => {
        const res = await appleBrowser.request("POST", apiPath(authorized.callbackURL), {
          rawBody: new URLSearchParams(authorized.form ?? {}).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        next = res.headers.get("location") ?? "";
      });
      expect(posted).toEqual(["update:verifications"]);
      const followed = await apple.commands(() => appleBrowser.get(apiPath(next)));
      expect(followed).toEqual([
        "find:verifications",
        "delete:verifications",
        "find:accounts",
        "find:users",
        "find:organizationDomains", // require-SSO, before the user is written
        "insert:emailClaims",
        "update:userTimeline", // the user's timeline entry, before the user (docs/scale.md)
        "insert:users",
        "update:listingVersions",
        "insert:accounts",
        "insert:sessions",
      ]);
    } finally {
      await apple.close();
    }
  });
});
