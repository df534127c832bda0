import { createAuth } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "#test/browser.ts";
import {
  API,
  apiPath,
  countDocs,
  createSocialAuth,
  ERROR_PAGE,
  errorOf,
  newBrowser,
  providerConfig,
  returnToCallback,
  runSocialFlow,
  useSocialTestbed,
} from "#test/social.ts";
import { TEST_SECRET } from "#test/test-auth.ts";
import { signValue } from "../../crypto/index.ts";

/** GET|POST /callback/{id}: docs/decisions/ outcomes and every callback error code. */
const { server, t } = useSocialTestbed(["github", "google"]);

const ADA = { id: "1001", email: "Ada@Example.com", emailVerified: true, name: "Ada Lovelace", image: null };

/** Starts a flow in a fresh browser and returns it with the provider's answer, not yet followed back. */
async function startFlow(body: Record<string, unknown> = {}, provider = "github") {
  const browser = newBrowser(t);
  const start = await browser.post<{ url: string }>("/sign-in/social", { provider, ...body });
  expect(start.status).toBe(200);
  const authorize = await server.authorize(start.body.url);
  return { browser, authorize, state: authorize.state ?? "" };
}

describe("successful provider sign-in", () => {
  it("signs up a new user: lower-cased email, verified from the provider, account with encrypted tokens, session, newUserCallbackURL", async () => {
    server.setIdentity("github", { ...ADA, id: "2001", email: "New.User@Example.com" });
    const before = await countDocs(t);
    const browser = newBrowser(t);
    const flow = await runSocialFlow(browser, server, {
      provider: "github",
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    expect(flow.location).toBe("/welcome");
    const user = await t.db.collection("users").findOne({ email: "new.user@example.com" });
    expect(user).toMatchObject({ emailVerified: true, name: "Ada Lovelace" });
    const account = await t.db.collection("accounts").findOne({ providerId: "github", accountId: "2001" });
    expect(account?.userId.equals(user?._id)).toBe(true);
    expect(account?.accessToken).toMatch(/^v1\./);
    expect(JSON.stringify(account)).not.toMatch(/"at_|"rt_/);
    expect(await countDocs(t)).toEqual({
      users: before.users + 1,
      accounts: before.accounts + 1,
      sessions: before.sessions + 1,
    });
    // The session cookie works, and the state is gone (deleted on use).
    const session = await browser.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe("new.user@example.com");
    expect(
      await t.db
        .collection("verifications")
        .countDocuments({ identifier: `oauth-state:${flow.authorize.state}` }),
    ).toBe(0);
    expect(browser.cookies.has("tessera.oauth_state")).toBe(false);
  });

  it("signs a returning user in to the same user (callbackURL, not newUserCallbackURL) and refreshes the stored tokens", async () => {
    server.setIdentity("github", { ...ADA, id: "2002", email: "returning@example.com" });
    await runSocialFlow(newBrowser(t), server, { provider: "github" });
    const first = await t.db.collection("accounts").findOne({ accountId: "2002" });
    const before = await countDocs(t);
    const flow = await runSocialFlow(newBrowser(t), server, {
      provider: "github",
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    expect(flow.location).toBe("/home");
    expect(await countDocs(t)).toEqual({ ...before, sessions: before.sessions + 1 });
    const second = await t.db.collection("accounts").findOne({ accountId: "2002" });
    expect(second?.accessToken).not.toBe(first?.accessToken);
  });

  it("defaults to the application root without callbackURL", async () => {
    server.setIdentity("github", { ...ADA, id: "2003", email: "root@example.com" });
    const flow = await runSocialFlow(newBrowser(t), server, { provider: "github" });
    expect(flow.location).toBe("http://localhost:3000/");
  });

  it("keys the account on the provider id, not the email", async () => {
    server.setIdentity("github", { ...ADA, id: "2004", email: "first@example.com" });
    await runSocialFlow(newBrowser(t), server, { provider: "github" });
    server.setIdentity("github", { ...ADA, id: "2004", email: "changed@example.com" });
    const browser = newBrowser(t);
    await runSocialFlow(browser, server, { provider: "github" });
    const session = await browser.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe("first@example.com");
    expect(await t.db.collection("users").countDocuments({ email: "changed@example.com" })).toBe(0);
  });
});

describe("state: one-time, 10 minutes, bound to the browser", () => {
  it("no state parameter → /error?error=state_not_found, database unchanged", async () => {
    const before = await countDocs(t);
    const res = await newBrowser(t).get("/callback/github?code=abc");
    expect(res.status).toBe(302);
    expect(errorOf(res.headers.get("location") ?? "")).toEqual({
      page: ERROR_PAGE,
      error: "state_not_found",
      description: null,
    });
    expect(await countDocs(t)).toEqual(before);
  });

  it("a replayed state → please_restart_the_process", async () => {
    server.setIdentity("github", { ...ADA, id: "2010", email: "replay@example.com" });
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/oops" });
    const first = await returnToCallback(browser, authorize);
    expect(first.headers.get("location")).toBe("http://localhost:3000/");
    const before = await countDocs(t);
    const again = await browser.get(apiPath(authorize.callbackURL));
    expect(errorOf(again.headers.get("location") ?? "")).toMatchObject({
      page: ERROR_PAGE,
      error: "please_restart_the_process",
    });
    expect(await countDocs(t)).toEqual(before);
  });

  it("an expired state (after 10 minutes) → please_restart_the_process", async () => {
    const { browser, authorize } = await startFlow();
    t.advance(601);
    try {
      const before = await countDocs(t);
      const res = await browser.get(apiPath(authorize.callbackURL));
      expect(errorOf(res.headers.get("location") ?? "")).toMatchObject({
        page: ERROR_PAGE,
        error: "please_restart_the_process",
      });
      expect(await countDocs(t)).toEqual(before);
    } finally {
      t.advance(-601);
    }
  });

  it("another browser's state → state_mismatch, nothing created, and the owner can still finish (matrix H1/H4)", async () => {
    server.setIdentity("github", { ...ADA, id: "2011", email: "victim@example.com" });
    const { browser, authorize } = await startFlow();
    const before = await countDocs(t);
    const attacker = newBrowser(t);
    const stolen = await attacker.get(apiPath(authorize.callbackURL));
    expect(errorOf(stolen.headers.get("location") ?? "")).toMatchObject({
      page: ERROR_PAGE,
      error: "state_mismatch",
    });
    expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await countDocs(t)).toEqual(before);
    // A forged state cookie does not help either.
    attacker.cookies.set("tessera.oauth_state", `${authorize.state}.forged`);
    const forged = await attacker.get(apiPath(authorize.callbackURL));
    expect(errorOf(forged.headers.get("location") ?? "").error).toBe("state_mismatch");
    const owner = await returnToCallback(browser, authorize);
    expect(owner.headers.get("location")).toBe("http://localhost:3000/");
    expect((await countDocs(t)).users).toBe(before.users + 1);
  });

  it("the state cookie is typed: another signed value of the engine never binds a flow", async () => {
    const { browser, authorize, state } = await startFlow();
    expect(browser.cookies.get("tessera.oauth_state")).not.toBe(signValue(state, TEST_SECRET));
    // What a session cookie carrying this very string would look like: refused as a state cookie.
    const other = newBrowser(t);
    other.cookies.set("tessera.oauth_state", signValue(state, TEST_SECRET));
    const res = await other.get(apiPath(authorize.callbackURL));
    expect(errorOf(res.headers.get("location") ?? "").error).toBe("state_mismatch");
    // And the state cookie is no session cookie.
    const impostor = newBrowser(t);
    impostor.cookies.set(SESSION_COOKIE, browser.cookies.get("tessera.oauth_state") ?? "");
    expect((await impostor.get("/get-session")).body).toBeNull();
  });

  it("of 8 concurrent callbacks with one state exactly one signs in", async () => {
    server.setIdentity("github", { ...ADA, id: "2012", email: "race@example.com" });
    const { browser, authorize } = await startFlow();
    const cookie = browser.cookieHeader();
    const before = await countDocs(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.auth.handler(new Request(authorize.callbackURL, { headers: { cookie } })),
      ),
    );
    const locations = results.map((res) => res.headers.get("location") ?? "");
    expect(locations.filter((l) => l === "http://localhost:3000/")).toHaveLength(1);
    expect(locations.filter((l) => errorOf(l).error === "please_restart_the_process")).toHaveLength(7);
    expect(await countDocs(t)).toEqual({
      users: before.users + 1,
      accounts: before.accounts + 1,
      sessions: before.sessions + 1,
    });
  });
});

describe("concurrent first sign-ins of one person", () => {
  it("six parallel flows create exactly one user and one account, and every success is that user", async () => {
    server.setIdentity("github", { ...ADA, id: "2060", email: "parallel@example.com" });
    const flows = await Promise.all(
      Array.from({ length: 6 }, () => startFlow({ callbackURL: "/home", errorCallbackURL: "/oops" })),
    );
    const before = await countDocs(t);
    const results = await Promise.all(
      flows.map(({ browser, authorize }) => returnToCallback(browser, authorize)),
    );
    const locations = results.map((res) => res.headers.get("location") ?? "");
    const users = await t.db.collection("users").find({ email: "parallel@example.com" }).toArray();
    expect(users).toHaveLength(1);
    expect(
      await t.db.collection("accounts").countDocuments({ providerId: "github", accountId: "2060" }),
    ).toBe(1);
    const successes = locations.filter((l) => l === "/home").length;
    expect(successes).toBeGreaterThanOrEqual(1);
    for (const l of locations.filter((l) => l !== "/home"))
      expect(["/oops?error=account_not_linked", "/oops?error=unable_to_create_user"]).toContain(l);
    expect(await countDocs(t)).toEqual({
      users: before.users + 1,
      accounts: before.accounts + 1,
      sessions: before.sessions + successes,
    });
    for (const [i, res] of results.entries()) {
      if (res.headers.get("location") !== "/home") continue;
      const session = await flows[i]?.browser.get<{ user: { id: string } }>("/get-session");
      expect(session?.body.user.id).toBe(users[0]?._id.toHexString());
    }
  });
});

describe("callback error codes", () => {
  it("provider error and error_description are passed through to errorCallbackURL", async () => {
    server.fail("github", "authorize", { error: "access_denied", errorDescription: "The user said no" });
    const before = await countDocs(t);
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/login?from=github" });
    const res = await returnToCallback(browser, authorize);
    expect(res.headers.get("location")).toBe(
      "/login?from=github&error=access_denied&error_description=The+user+said+no",
    );
    expect(await countDocs(t)).toEqual(before);
  });

  it("a provider error without errorCallbackURL goes to the /error page", async () => {
    server.fail("github", "authorize", { error: "access_denied" });
    const { browser, authorize } = await startFlow();
    const res = await returnToCallback(browser, authorize);
    expect(errorOf(res.headers.get("location") ?? "")).toEqual({
      page: ERROR_PAGE,
      error: "access_denied",
      description: null,
    });
  });

  it("invalid_callback_request: an oversized parameter, or a state issued for another provider (mix-up, H8)", async () => {
    const long = await newBrowser(t).get(`/callback/github?state=${"a".repeat(300)}&code=x`);
    expect(errorOf(long.headers.get("location") ?? "")).toMatchObject({
      page: ERROR_PAGE,
      error: "invalid_callback_request",
    });
    const before = await countDocs(t);
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/oops" });
    const url = new URL(authorize.callbackURL);
    const res = await browser.get(`/callback/google${url.search}`);
    expect(res.headers.get("location")).toBe("/oops?error=invalid_callback_request");
    expect(await countDocs(t)).toEqual(before);
  });

  it("no_code: the state but no code", async () => {
    const { browser, state } = await startFlow({ errorCallbackURL: "/oops" });
    const res = await browser.get(`/callback/github?state=${state}`);
    expect(res.headers.get("location")).toBe("/oops?error=no_code");
  });

  it("oauth_provider_not_found: a callback for a provider that is not configured", async () => {
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/oops" });
    const res = await browser.get(`/callback/myspace${new URL(authorize.callbackURL).search}`);
    expect(res.headers.get("location")).toBe("/oops?error=oauth_provider_not_found");
  });

  it("invalid_code: the provider refuses the code (PKCE verifier mismatch), nothing persisted", async () => {
    const { browser, state } = await startFlow({ errorCallbackURL: "/oops" });
    // A code bound to another verifier's challenge: the flow's verifier cannot redeem it.
    const code = server.issueCode("github", {
      redirectURI: `${API}/callback/github`,
      codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    });
    const before = await countDocs(t);
    const res = await browser.get(`/callback/github?state=${state}&code=${code}`);
    expect(res.headers.get("location")).toBe("/oops?error=invalid_code");
    expect(server.lastRequest("github", "token")?.form.code_verifier).toHaveLength(128);
    expect(await countDocs(t)).toEqual(before);
  });

  it("unable_to_get_user_info: the code exchange's id token carries another flow's nonce", async () => {
    server.setIdentity("google", { ...ADA, id: "2050", email: "nonce@example.com" });
    const browser = newBrowser(t);
    const start = await browser.post<{ url: string }>("/sign-in/social", {
      provider: "google",
      errorCallbackURL: "/oops",
    });
    const url = new URL(start.body.url);
    url.searchParams.set("nonce", "a-nonce-from-another-transaction");
    const before = await countDocs(t);
    const res = await returnToCallback(browser, await server.authorize(url));
    expect(res.headers.get("location")).toBe("/oops?error=unable_to_get_user_info");
    expect(await countDocs(t)).toEqual(before);
  });

  it("unable_to_get_user_info: the user-info call fails", async () => {
    server.fail("github", "userinfo", { status: 500 });
    const before = await countDocs(t);
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/oops" });
    const res = await returnToCallback(browser, authorize);
    expect(res.headers.get("location")).toBe("/oops?error=unable_to_get_user_info");
    expect(await countDocs(t)).toEqual(before);
  });

  it("email_not_found: the provider gives no email", async () => {
    server.setIdentity("github", { ...ADA, id: "2020", email: null });
    const before = await countDocs(t);
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/oops" });
    const res = await returnToCallback(browser, authorize);
    expect(res.headers.get("location")).toBe("/oops?error=email_not_found");
    expect(await countDocs(t)).toEqual(before);
  });

  it("no_callback_url: a state without callbackURL reaching an instance without a base URL", async () => {
    const other = createAuth({
      database: t.db,
      secret: TEST_SECRET,
      socialProviders: { github: providerConfig(server, "github") },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      rateLimit: { enabled: false },
    });
    server.setIdentity("github", { ...ADA, id: "2021", email: "nocb@example.com" });
    const { browser, authorize } = await startFlow({ errorCallbackURL: "/oops" });
    const before = await countDocs(t);
    const res = await other.handler(
      new Request(authorize.callbackURL, { headers: { cookie: browser.cookieHeader() } }),
    );
    expect(res.headers.get("location")).toBe("/oops?error=no_callback_url");
    expect(await countDocs(t)).toEqual(before);
  });

  it("signup_disabled: the provider's disableSignUp, and disableImplicitSignUp without requestSignUp", async () => {
    const closed = await createSocialAuth(server, [], {
      socialProviders: {
        github: providerConfig(server, "github", { disableSignUp: true }),
        google: providerConfig(server, "google", { disableImplicitSignUp: true }),
      },
    });
    try {
      server.setIdentity("github", { ...ADA, id: "2030", email: "closed@example.com" });
      server.setIdentity("google", { ...ADA, id: "2031", email: "implicit@example.com" });
      const gh = await runSocialFlow(newBrowser(closed), server, {
        provider: "github",
        errorCallbackURL: "/oops",
      });
      expect(gh.location).toBe("/oops?error=signup_disabled");
      const google = await runSocialFlow(newBrowser(closed), server, {
        provider: "google",
        errorCallbackURL: "/oops",
      });
      expect(google.location).toBe("/oops?error=signup_disabled");
      expect(await countDocs(closed)).toEqual({ users: 0, accounts: 0, sessions: 0 });
      const asked = await runSocialFlow(newBrowser(closed), server, {
        provider: "google",
        requestSignUp: true,
        callbackURL: "/home",
      });
      expect(asked.location).toBe("/home");
      expect(await countDocs(closed)).toEqual({ users: 1, accounts: 1, sessions: 1 });
    } finally {
      await closed.close();
    }
  });

  it("unable_to_create_user / unable_to_create_session: refused by hooks, nothing half-made", async () => {
    const refusing = await createSocialAuth(server, ["github"], {
      hooks: { user: { create: { before: () => false } } },
    });
    const noSession = await createSocialAuth(server, ["github"], {
      hooks: { session: { create: { before: () => false } } },
    });
    try {
      server.setIdentity("github", { ...ADA, id: "2040", email: "hooked@example.com" });
      const a = await runSocialFlow(newBrowser(refusing), server, {
        provider: "github",
        errorCallbackURL: "/oops",
      });
      expect(a.location).toBe("/oops?error=unable_to_create_user");
      expect(await countDocs(refusing)).toEqual({ users: 0, accounts: 0, sessions: 0 });
      const b = await runSocialFlow(newBrowser(noSession), server, {
        provider: "github",
        errorCallbackURL: "/oops",
      });
      expect(b.location).toBe("/oops?error=unable_to_create_session");
      expect((await countDocs(noSession)).sessions).toBe(0);
    } finally {
      await refusing.close();
      await noSession.close();
    }
  });
});

describe("provider quirks and outages", () => {
  it("a form_post naming no live state stores nothing and forwards neither code nor user", async () => {
    const apple = await createSocialAuth(server, ["apple"]);
    try {
      const before = await apple.db.collection("verifications").find().toArray();
      const posted = await apple.auth.handler(
        new Request(`${API}/callback/apple`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: "https://appleid.apple.com",
            "sec-fetch-site": "cross-site",
          },
          body: new URLSearchParams({
            state: "not-a-live-state",
            code: "stolen-or-made-up",
            user: JSON.stringify({ name: { firstName: "Eve" }, email: "eve@example.com" }),
          }).toString(),
        }),
      );
      expect(posted.status).toBe(302);
      const next = new URL(posted.headers.get("location") ?? "");
      expect([...next.searchParams.entries()]).toEqual([["state", "not-a-live-state"]]);
      expect(await apple.db.collection("verifications").find().toArray()).toEqual(before);
      const done = await newBrowser(apple).get(apiPath(next.toString()));
      expect(errorOf(done.headers.get("location") ?? "").error).toBe("please_restart_the_process");
      expect(await countDocs(apple)).toEqual({ users: 0, accounts: 0, sessions: 0 });
    } finally {
      await apple.close();
    }
  });

  it("Apple's form_post: the cross-site POST (no cookies) becomes a GET carrying only the state", async () => {
    const apple = await createSocialAuth(server, ["apple"]);
    try {
      server.setIdentity("apple", { ...ADA, id: "apple.001", email: "apple.person@example.com" });
      const browser = newBrowser(apple);
      const start = await browser.post<{ url: string }>("/sign-in/social", {
        provider: "apple",
        callbackURL: "/home",
      });
      const authorize = await server.authorize(start.body.url);
      expect(authorize.method).toBe("POST");
      // The browser posts from appleid.apple.com: SameSite=Lax keeps the state cookie out of it.
      const posted = await apple.auth.handler(
        new Request(authorize.callbackURL, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: "https://appleid.apple.com",
            // What a browser sends on this POST (Fetch Metadata): the engine's cross-site rule
            // must not refuse it (the callback opts out: acceptsCrossSitePost).
            "sec-fetch-site": "cross-site",
          },
          body: new URLSearchParams(authorize.form ?? {}).toString(),
        }),
      );
      expect(posted.status).toBe(302);
      const next = new URL(posted.headers.get("location") ?? "");
      expect(`${next.origin}${next.pathname}`).toBe(`${API}/callback/apple`);
      // Only the state travels in the URL: the code and the `user` JSON (name, email) are kept,
      // encrypted, on the state record until the GET consumes it.
      expect([...next.searchParams.keys()]).toEqual(["state"]);
      expect(next.searchParams.get("state")).toBe(authorize.state);
      const stateRow = await apple.db
        .collection("verifications")
        .findOne({ identifier: `oauth-state:${authorize.state}` });
      expect(typeof stateRow?.formPost).toBe("string");
      expect(stateRow?.formPost).not.toContain(authorize.code);
      expect(stateRow?.formPost).not.toContain("Ada");
      expect(await countDocs(apple)).toEqual({ users: 0, accounts: 0, sessions: 0 });
      const done = await browser.get(apiPath(next.toString()));
      expect(done.headers.get("location")).toBe("/home");
      const user = await apple.db.collection("users").findOne({ email: "apple.person@example.com" });
      expect(user?.name).toBe("Ada Lovelace");
      expect(await apple.db.collection("verifications").countDocuments({ formPost: { $exists: true } })).toBe(
        0,
      );
    } finally {
      await apple.close();
    }
  });

  it("a hanging token endpoint fails within the provider timeout with invalid_code, nothing persisted (H16)", async () => {
    const slow = await createSocialAuth(server, ["github"], { advanced: { providerTimeoutMs: 300 } });
    try {
      server.fail("github", "token", { delayMs: 3000, times: 1 });
      const browser = newBrowser(slow);
      const start = await browser.post<{ url: string }>("/sign-in/social", {
        provider: "github",
        errorCallbackURL: "/oops",
      });
      const authorize = await server.authorize(start.body.url);
      const began = Date.now();
      const res = await returnToCallback(browser, authorize);
      expect(Date.now() - began).toBeLessThan(2500);
      expect(res.headers.get("location")).toBe("/oops?error=invalid_code");
      expect(await countDocs(slow)).toEqual({ users: 0, accounts: 0, sessions: 0 });
    } finally {
      await slow.close();
    }
  });

  it("a generic provider whose discovery fails: sign-in answers 500 without a state; a callback answers oauth_provider_not_found", async () => {
    const generic = { providerId: "acme", clientId: "test-client-id", clientSecret: "test-client-secret" };
    const healthy = await createSocialAuth(server, [], {
      genericOAuth: [{ ...generic, discoveryUrl: server.discoveryUrl("acme") }],
    });
    const broken = await createSocialAuth(server, [], {
      genericOAuth: [{ ...generic, discoveryUrl: server.discoveryUrl("acme") }],
    });
    try {
      server.fail("acme", ".well-known/openid-configuration", { status: 503 });
      const refused = await newBrowser(broken).post<{ code: string }>("/sign-in/social", {
        provider: "acme",
      });
      expect(refused.status).toBe(500);
      expect(refused.body.code).toBe("INTERNAL_SERVER_ERROR");
      expect(await broken.db.collection("verifications").countDocuments()).toBe(0);
      server.reset();
      const browser = newBrowser(healthy);
      const start = await browser.post<{ url: string }>("/sign-in/social", {
        provider: "acme",
        errorCallbackURL: "/oops",
      });
      const authorize = await server.authorize(start.body.url);
      server.fail("acme", ".well-known/openid-configuration", { status: 503 });
      // Same database, an instance that has not loaded discovery yet (a restart between the two legs).
      const restarted = createAuth({
        database: healthy.db,
        secret: TEST_SECRET,
        baseURL: "http://localhost:3000",
        genericOAuth: [{ ...generic, discoveryUrl: server.discoveryUrl("acme") }],
        logger: { info: () => {}, warn: () => {}, error: () => {} },
        rateLimit: { enabled: false },
      });
      const res = await restarted.handler(
        new Request(authorize.callbackURL, { headers: { cookie: browser.cookieHeader() } }),
      );
      expect(res.headers.get("location")).toBe("/oops?error=oauth_provider_not_found");
    } finally {
      await healthy.close();
      await broken.close();
    }
  });
});
