import { createAuthClient } from "@tessera/auth-core/client";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { type OidcIdp, startOidcIdp } from "#test/oidc-idp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { TEST_ORIGIN, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * An SSO sign-in end to end through auth.handler against a real OIDC provider (oidc-provider on
 * 127.0.0.1): /sign-in/sso → the IdP → /sso/callback/{providerId} → session cookie, membership,
 * audit row.
 */

const CLIENT = { clientId: "tessera-acme", clientSecret: "acme-client-secret-0123456789" };
const REDIRECT_URI = `${TEST_ORIGIN}/api/auth/sso/callback/acme`;

let idp: OidcIdp;
beforeAll(async () => {
  idp = await startOidcIdp({ clients: [{ ...CLIENT, redirectUri: REDIRECT_URI }] });
});
afterAll(async () => {
  await idp.close();
});

const openAuth = useFreshTestAuth();

async function setUp(options: { trustDeclaredDomains?: boolean } = {}) {
  const t = await openAuth({
    outbound: { allowPrivateAddresses: true },
    sso: { trustDeclaredDomains: options.trustDeclaredDomains ?? true },
  });
  const owner = await signIn(t, "olivia");
  const organizationId = await createOrganization(owner, "acme");
  const registered = await owner.browser.post<Record<string, unknown>>("/sso/register", {
    providerId: "acme",
    issuer: idp.issuer,
    domain: "acme.test",
    organizationId,
    oidcConfig: {
      ...CLIENT,
      scopes: ["openid", "email", "profile", "groups"],
      mapping: { groupRoles: { admins: "admin" } },
    },
  });
  expect(registered.status).toBe(200);
  return { t, owner, organizationId, registered: registered.body };
}

/** The browser's whole sign-in: start, the IdP, the callback. Answers the callback's answer. */
async function signInThroughIdp(browser: TestBrowser, accountId: string, body: Record<string, unknown>) {
  const started = await browser.post<{ url: string; redirect: boolean }>("/sign-in/sso", body);
  expect(started.status).toBe(200);
  expect(started.body.redirect).toBe(true);
  const callback = await idp.signIn(started.body.url, accountId);
  expect(callback.startsWith(`${REDIRECT_URI}?`)).toBe(true);
  return browser.get(callback);
}

describe("sign-in through an OIDC connection", () => {
  it("registers the connection without answering its secret, with the redirect URI to give the IdP", async () => {
    const { t, registered, organizationId } = await setUp();
    expect(registered).toMatchObject({
      providerId: "acme",
      type: "oidc",
      issuer: idp.issuer,
      domain: "acme.test",
      organizationId,
      domainVerified: true,
      enabled: true,
      defaultRole: "member",
      redirectURI: REDIRECT_URI,
      oidcConfig: {
        clientIdLastFour: "****acme",
        pkce: true,
        authorizationEndpoint: `${idp.issuer}/auth`,
        jwksEndpoint: `${idp.issuer}/jwks`,
        discoveryEndpoint: `${idp.issuer}/.well-known/openid-configuration`,
      },
    });
    expect(JSON.stringify(registered)).not.toContain(CLIENT.clientSecret);
    const stored = await t.db.collection("ssoProviders").findOne({ providerId: "acme" });
    expect(stored?.oidcConfig.clientSecret).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(CLIENT.clientSecret);
    const audit = await t.db.collection("auditEvents").findOne({ action: "organization.sso-register" });
    expect(audit?.details).toMatchObject({ providerId: "acme", organizationId });
  });

  it("a first sign-in by email domain creates the user, the member with the default role, a session and an audit row", async () => {
    const { t, organizationId } = await setUp();
    idp.setAccount("grace-1", { email: "Grace@Acme.test", email_verified: true, name: "Grace Hopper" });
    const browser = new TestBrowser(t.auth);
    const answer = await signInThroughIdp(browser, "grace-1", {
      email: "grace@acme.test",
      callbackURL: `${TEST_ORIGIN}/dashboard`,
      newUserCallbackURL: `${TEST_ORIGIN}/welcome`,
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${TEST_ORIGIN}/welcome`);
    const session = await browser.get<{ user: { email: string; emailVerified: boolean; name: string } }>(
      "/get-session",
    );
    expect(session.body.user).toMatchObject({
      email: "grace@acme.test",
      emailVerified: true,
      name: "Grace Hopper",
    });
    const user = await t.db.collection("users").findOne({ email: "grace@acme.test" });
    const member = await t.db
      .collection("members")
      .findOne({ organizationId: new ObjectId(organizationId), userId: user?._id });
    expect(member?.role).toBe("member");
    const account = await t.db.collection("accounts").findOne({ userId: user?._id, providerId: "acme" });
    expect(account?.accountId).toBe("grace-1");
    const audit = await t.db.collection("auditEvents").findOne({ action: "organization.sso-sign-in" });
    expect(audit).toMatchObject({
      actorId: user?._id,
      subjectId: user?._id,
      details: { organizationId, providerId: "acme", newUser: true, joined: true },
    });
    // The IdP was asked for discovery, keys, the token and the userinfo claims.
    expect(idp.requests).toEqual(
      expect.arrayContaining(["/.well-known/openid-configuration", "/jwks", "/token", "/me"]),
    );
  });

  it("a returning user signs in by providerId to the callbackURL; a mapped group gives a new member its role", async () => {
    const { t, organizationId } = await setUp();
    idp.setAccount("lin-1", {
      email: "lin@acme.test",
      email_verified: true,
      name: "Lin",
      groups: ["admins"],
    });
    const first = await signInThroughIdp(new TestBrowser(t.auth), "lin-1", {
      providerId: "acme",
      callbackURL: `${TEST_ORIGIN}/dashboard`,
    });
    expect(first.status).toBe(302);
    const again = await signInThroughIdp(new TestBrowser(t.auth), "lin-1", {
      organizationSlug: "acme",
      callbackURL: `${TEST_ORIGIN}/dashboard`,
      newUserCallbackURL: `${TEST_ORIGIN}/welcome`,
    });
    expect(again.headers.get("location")).toBe(`${TEST_ORIGIN}/dashboard`);
    const users = await t.db.collection("users").find({ email: "lin@acme.test" }).toArray();
    expect(users).toHaveLength(1);
    const members = await t.db
      .collection("members")
      .find({ organizationId: new ObjectId(organizationId), userId: users[0]?._id })
      .toArray();
    expect(members.map((member) => member.role)).toEqual(["admin"]);
  });

  it("an existing user of an address whose domain is not verified is refused, not taken over (pre-hijack)", async () => {
    const { t } = await setUp({ trustDeclaredDomains: false });
    const victim = await signIn(t, "victim");
    idp.setAccount("mallory-1", { email: victim.email, email_verified: true, name: "Mallory" });
    const browser = new TestBrowser(t.auth);
    const answer = await signInThroughIdp(browser, "mallory-1", {
      providerId: "acme",
      callbackURL: `${TEST_ORIGIN}/dashboard`,
      errorCallbackURL: `${TEST_ORIGIN}/sign-in`,
    });
    const location = new URL(answer.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_ORIGIN}/sign-in`);
    expect(location.searchParams.get("error")).toBe("SSO_ACCOUNT_NOT_LINKABLE");
    expect(location.searchParams.get("error_description")).toBe(
      "An account with this email already exists: single sign-on can sign into it only once the organization has verified the email's domain",
    );
    expect(await t.db.collection("accounts").countDocuments({ providerId: "acme" })).toBe(0);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("a new user of an unverified domain is created with the address unverified", async () => {
    const { t } = await setUp({ trustDeclaredDomains: false });
    idp.setAccount("nia-1", { email: "nia@acme.test", email_verified: true, name: "Nia" });
    const answer = await signInThroughIdp(new TestBrowser(t.auth), "nia-1", {
      providerId: "acme",
      callbackURL: `${TEST_ORIGIN}/dashboard`,
    });
    expect(answer.status).toBe(302);
    const user = await t.db.collection("users").findOne({ email: "nia@acme.test" });
    expect(user?.emailVerified).toBe(false);
  });

  it("an email whose domain no organization verified routes nowhere", async () => {
    const { t } = await setUp({ trustDeclaredDomains: false });
    const answer = await new TestBrowser(t.auth).post("/sign-in/sso", {
      email: "grace@acme.test",
      callbackURL: `${TEST_ORIGIN}/dashboard`,
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ code: "SSO_PROVIDER_NOT_FOUND", message: "SSO provider not found" });
  });

  it("the browser client's signIn.sso (Better Auth's name) answers the IdP's URL", async () => {
    const { t } = await setUp();
    const client = createAuthClient({
      baseURL: TEST_ORIGIN,
      fetchOptions: {
        customFetchImpl: (input, init) => {
          const request = new Request(input, init);
          request.headers.set("origin", TEST_ORIGIN);
          return t.auth.handler(request);
        },
      },
    });
    const { data, error } = await client.signIn.sso({ providerId: "acme", callbackURL: `${TEST_ORIGIN}/` });
    expect(error).toBeNull();
    expect(data?.redirect).toBe(true);
    expect(data?.url.startsWith(`${idp.issuer}/auth?`)).toBe(true);
  });

  it("with overrideUserInfo a returning user's name follows the IdP's; without it, it stays", async () => {
    const { t, owner } = await setUp();
    idp.setAccount("ray-1", { email: "ray@acme.test", email_verified: true, name: "Ray" });
    const start = { providerId: "acme", callbackURL: `${TEST_ORIGIN}/` };
    await signInThroughIdp(new TestBrowser(t.auth), "ray-1", start);
    idp.setAccount("ray-1", { email: "ray@acme.test", email_verified: true, name: "Raymond" });
    await signInThroughIdp(new TestBrowser(t.auth), "ray-1", start);
    expect((await t.db.collection("users").findOne({ email: "ray@acme.test" }))?.name).toBe("Ray");
    const updated = await owner.browser.post("/sso/update-provider", {
      providerId: "acme",
      oidcConfig: { overrideUserInfo: true },
    });
    expect(updated.status).toBe(200);
    await signInThroughIdp(new TestBrowser(t.auth), "ray-1", start);
    expect((await t.db.collection("users").findOne({ email: "ray@acme.test" }))?.name).toBe("Raymond");
  });
  it("a connection turned off, or whose organization was deleted, between the start and the IdP's return signs nobody in", async () => {
    const { t, owner, organizationId } = await setUp();
    idp.setAccount("kim-1", { email: "kim@acme.test", email_verified: true, name: "Kim" });
    const returnFromIdp = async (change: () => Promise<unknown>) => {
      const browser = new TestBrowser(t.auth);
      const started = await browser.post<{ url: string }>("/sign-in/sso", {
        providerId: "acme",
        callbackURL: `${TEST_ORIGIN}/`,
      });
      expect(started.status).toBe(200);
      const callback = await idp.signIn(started.body.url, "kim-1");
      await change();
      const answer = await browser.get(callback);
      expect(answer.status).toBe(302);
      expect(answer.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line))).toBe(false);
      return new URL(answer.headers.get("location") ?? "", TEST_ORIGIN).searchParams.get("error");
    };
    const off = () => owner.browser.post("/sso/update-provider", { providerId: "acme", enabled: false });
    expect(await returnFromIdp(off)).toBe("SSO_PROVIDER_DISABLED");
    await owner.browser.post("/sso/update-provider", { providerId: "acme", enabled: true });
    const deleted = () => owner.browser.post("/organization/delete", { organizationId });
    expect(await returnFromIdp(deleted)).toBe("SSO_PROVIDER_NOT_FOUND");
    expect(await t.db.collection("users").findOne({ email: "kim@acme.test" })).toBeNull();
  });
});
