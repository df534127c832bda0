import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, useOAuthServer } from "#test/oauth-server.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { TEST_ORIGIN, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * The OIDC attacks of issue 31 §3 against an SSO connection, each refused with nothing created: a
 * scripted IdP (tests/support/oauth-server.ts) answers the token request with the forged id token.
 * docs/security.md "Single sign-on".
 */

const server = useOAuthServer();
const openAuth = useFreshTestAuth();
const IDP = "idp";
const CALLBACK = `${TEST_ORIGIN}/dashboard`;
const ERROR_PAGE = `${TEST_ORIGIN}/sign-in`;

async function setUp() {
  server.reset();
  server.setIdentity(IDP, { id: "sub-1", email: "grace@acme.test", emailVerified: true, name: "Grace" });
  const t = await openAuth({
    outbound: { allowPrivateAddresses: true },
    sso: { trustDeclaredDomains: true },
  });
  const owner = await signIn(t, "olivia");
  const organizationId = await createOrganization(owner, "acme");
  const registered = await owner.browser.post("/sso/register", {
    providerId: "corp",
    issuer: server.issuer(IDP),
    domain: "acme.test",
    organizationId,
    oidcConfig: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET },
  });
  expect(registered.status).toBe(200);
  return { t, owner, organizationId };
}

/** Starts a sign-in in `browser` and runs the IdP's consent; answers the callback URL and the flow's nonce. */
async function startFlow(browser: TestBrowser) {
  const started = await browser.post<{ url: string }>("/sign-in/sso", {
    providerId: "corp",
    callbackURL: CALLBACK,
    errorCallbackURL: ERROR_PAGE,
  });
  expect(started.status).toBe(200);
  const authorized = await server.authorize(started.body.url);
  const nonce = new URL(started.body.url).searchParams.get("nonce") ?? "";
  return { callbackURL: authorized.callbackURL, nonce };
}

/** The token endpoint answers this id token once. */
function answerIdToken(idToken: string) {
  server.fail(IDP, "token", {
    status: 200,
    body: { access_token: "at-forged", token_type: "Bearer", expires_in: 3600, id_token: idToken },
    times: 1,
  });
}

async function expectRefused(t: TestAuth, browser: TestBrowser, callbackURL: string, code: string) {
  const answer = await browser.get(callbackURL);
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get("location") ?? "");
  expect(location.searchParams.get("error")).toBe(code);
  expect((await browser.get("/get-session")).body).toBeNull();
  expect(await t.db.collection("users").countDocuments({ email: "grace@acme.test" })).toBe(0);
  return location;
}

const now = () => Math.floor(Date.now() / 1000);

describe("the id token of an SSO callback", () => {
  it("a well-formed token signed by the IdP's key signs the user in (the forged cases below differ in one thing)", async () => {
    const { t } = await setUp();
    const browser = new TestBrowser(t.auth);
    const { callbackURL, nonce } = await startFlow(browser);
    answerIdToken(server.signIdToken(IDP, { sub: "sub-1", email: "grace@acme.test", nonce }));
    const answer = await browser.get(callbackURL);
    expect(answer.headers.get("location")).toBe(CALLBACK);
    expect((await browser.get<{ user: { email: string } }>("/get-session")).body.user.email).toBe(
      "grace@acme.test",
    );
  });

  const forgeries: [string, (nonce: string) => [Record<string, unknown>, Record<string, unknown>?]][] = [
    ["from another issuer", (nonce) => [{ iss: "https://evil.example", nonce }]],
    ["for another audience", (nonce) => [{ aud: "someone-else", nonce }]],
    ["signed by a key the IdP never published", (nonce) => [{ nonce }, { key: "unknown" }]],
    ["with algorithm none", (nonce) => [{ nonce }, { alg: "none" }]],
    ["HS256-signed with the IdP's public key", (nonce) => [{ nonce }, { alg: "HS256-public-key" }]],
    ["expired", (nonce) => [{ nonce, iat: now() - 7200, exp: now() - 3600 }]],
    ["issued long ago (iat beyond the accepted age)", (nonce) => [{ nonce, iat: now() - 3600 }]],
    ["without iat", (nonce) => [{ nonce, iat: undefined }]],
    ["without the nonce", () => [{ nonce: undefined }]],
    ["carrying another flow's nonce", () => [{ nonce: "nonce-of-another-sign-in" }]],
  ];

  for (const [name, forge] of forgeries) {
    it(`is refused ${name}`, async () => {
      const { t } = await setUp();
      const browser = new TestBrowser(t.auth);
      const { callbackURL, nonce } = await startFlow(browser);
      const [claims, options] = forge(nonce);
      answerIdToken(server.signIdToken(IDP, { sub: "sub-1", email: "grace@acme.test", ...claims }, options));
      const location = await expectRefused(t, browser, callbackURL, "SSO_TOKEN_INVALID");
      expect(`${location.origin}${location.pathname}`).toBe(ERROR_PAGE);
      expect(location.searchParams.get("error_description")).toBe(
        "The identity provider's answer could not be verified",
      );
    });
  }

  it("a nonce replayed from an earlier sign-in, with that sign-in's own valid token, is refused", async () => {
    const { t } = await setUp();
    const first = new TestBrowser(t.auth);
    const earlier = await startFlow(first);
    const stolen = server.signIdToken(IDP, { sub: "sub-1", email: "grace@acme.test", nonce: earlier.nonce });
    const browser = new TestBrowser(t.auth);
    const { callbackURL } = await startFlow(browser);
    answerIdToken(stolen);
    await expectRefused(t, browser, callbackURL, "SSO_TOKEN_INVALID");
  });
});

describe("the state of an SSO callback", () => {
  it("a callback without state, or with a state already used, or from another browser is refused", async () => {
    const { t } = await setUp();
    const browser = new TestBrowser(t.auth);
    const { callbackURL } = await startFlow(browser);
    const withoutState = new URL(callbackURL);
    withoutState.searchParams.delete("state");
    const missing = await browser.get(withoutState.toString());
    expect(new URL(missing.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "SSO_STATE_INVALID",
    );
    // Another browser (no state cookie) cannot complete it …
    const stranger = new TestBrowser(t.auth);
    await expectRefused(t, stranger, callbackURL, "SSO_STATE_INVALID");
    // … its own browser can, once.
    expect((await browser.get(callbackURL)).headers.get("location")).toBe(CALLBACK);
    const replay = await browser.get(callbackURL);
    const location = new URL(replay.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_ORIGIN}/api/auth/error`);
    expect(location.searchParams.get("error")).toBe("SSO_STATE_INVALID");
  });

  it("a state issued for another connection is refused (mix-up)", async () => {
    const { t } = await setUp();
    const browser = new TestBrowser(t.auth);
    const { callbackURL } = await startFlow(browser);
    const elsewhere = callbackURL.replace("/sso/callback/corp", "/sso/callback/other");
    const answer = await browser.get(elsewhere);
    expect(new URL(answer.headers.get("location") ?? "").searchParams.get("error")).toBe("SSO_STATE_INVALID");
  });
});

describe("the IdP's keys and addresses", () => {
  it("a discovery document whose JWKS is on another host than the issuer is refused at registration", async () => {
    const { owner, organizationId } = await setUp();
    const discovery = await (await fetch(`${server.issuer(IDP)}/.well-known/openid-configuration`)).json();
    server.fail(IDP, ".well-known/openid-configuration", {
      status: 200,
      body: { ...discovery, jwks_uri: `${server.url.replace("127.0.0.1", "localhost")}/idp/jwks` },
      times: 1,
    });
    const refused = await owner.browser.post("/sso/register", {
      providerId: "corp-2",
      issuer: server.issuer(IDP),
      domain: "acme.test",
      organizationId,
      oidcConfig: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: "SSO_JWKS_HOST_MISMATCH",
      message: "The JWKS URL is on another host than the issuer",
    });
    const given = await owner.browser.post("/sso/register", {
      providerId: "corp-3",
      issuer: server.issuer(IDP),
      domain: "acme.test",
      organizationId,
      oidcConfig: {
        clientId: TEST_CLIENT_ID,
        clientSecret: TEST_CLIENT_SECRET,
        skipDiscovery: true,
        authorizationEndpoint: `${server.issuer(IDP)}/authorize`,
        tokenEndpoint: `${server.issuer(IDP)}/token`,
        jwksEndpoint: "https://keys.elsewhere.example/jwks",
      },
    });
    expect(given.body).toMatchObject({ code: "SSO_JWKS_HOST_MISMATCH" });
  });

  it("without outbound.allowPrivateAddresses an IdP on 127.0.0.1 is refused before any request", async () => {
    const t = await openAuth({});
    const owner = await signIn(t, "olivia");
    const organizationId = await createOrganization(owner, "acme");
    const before = server.requests.length;
    for (const issuer of [server.issuer(IDP), server.issuer(IDP).replace("http:", "https:")]) {
      const refused = await owner.browser.post("/sso/register", {
        providerId: "corp",
        issuer,
        domain: "acme.test",
        organizationId,
        oidcConfig: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        code: "SSO_URL_NOT_ALLOWED",
        message: "The identity provider's URL is refused: it must be an https URL of a public address",
      });
    }
    expect(server.requests.length).toBe(before);
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
  });
});
