import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, useOAuthServer } from "#test/oauth-server.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { TEST_ORIGIN, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Managing SSO connections: register, list, get, update, delete, "test this connection" — owners
 * and admins of the organization only, every refusal a catalogue message with nothing written.
 */

const server = useOAuthServer();
const openAuth = useFreshTestAuth();
const IDP = "idp";

function payload(organizationId: string, overrides: Record<string, unknown> = {}) {
  return {
    providerId: "corp",
    issuer: server.issuer(IDP),
    domain: "acme.test",
    organizationId,
    oidcConfig: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET },
    ...overrides,
  };
}

async function setUp() {
  server.reset();
  const warnings: string[] = [];
  const t = await openAuth({
    outbound: { allowPrivateAddresses: true },
    sso: { trustDeclaredDomains: true },
    logger: { info: () => {}, warn: (message) => warnings.push(message), error: () => {} },
  });
  const owner = await signIn(t, "olivia");
  const organizationId = await createOrganization(owner, "acme");
  return { t, owner, organizationId, warnings };
}

describe("registering a connection", () => {
  it("is for the organization's owners and admins only, and refuses what would clash", async () => {
    const { t, owner, organizationId, warnings } = await setUp();
    expect(warnings.some((line) => line.startsWith("outbound.allowPrivateAddresses is on"))).toBe(true);
    const memberUser = await signIn(t, "mo");
    await addMember(t, organizationId, memberUser, "member");
    const outsider = await signIn(t, "oscar");
    const asMember = await memberUser.browser.post("/sso/register", payload(organizationId));
    expect(asMember.status).toBe(403);
    expect(asMember.body).toEqual({
      code: "SSO_MANAGE_NOT_ALLOWED",
      message: "You must be an organization owner or admin to manage its SSO providers",
    });
    const asOutsider = await outsider.browser.post("/sso/register", payload(organizationId));
    expect(asOutsider.body).toEqual({
      code: "NOT_A_MEMBER_OF_ORGANIZATION",
      message: "You are not a member of this organization",
    });
    const anonymous = await new TestBrowser(t.auth).post("/sso/register", payload(organizationId));
    expect(anonymous.status).toBe(401);
    for (const [body, code] of [
      [payload(organizationId, { providerId: "google" }), "SSO_PROVIDER_ID_RESERVED"],
      [payload(organizationId, { providerId: "credential" }), "SSO_PROVIDER_ID_RESERVED"],
      [payload(organizationId, { oidcConfig: undefined }), "SSO_CONFIG_REQUIRED"],
      [payload(organizationId, { defaultRole: "owner" }), "SSO_DEFAULT_ROLE_NOT_ALLOWED"],
      [payload(organizationId, { defaultRole: "emperor" }), "SSO_DEFAULT_ROLE_NOT_ALLOWED"],
      [payload(organizationId, { domain: "not a domain" }), "INVALID_DOMAIN"],
    ] as const) {
      const refused = await owner.browser.post("/sso/register", body);
      expect([refused.status, (refused.body as { code: string }).code]).toEqual([
        code === "SSO_PROVIDER_ID_RESERVED" ? 422 : 400,
        code,
      ]);
    }
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
    expect((await owner.browser.post("/sso/register", payload(organizationId))).status).toBe(200);
    const again = await owner.browser.post("/sso/register", payload(organizationId));
    expect([again.status, again.body]).toEqual([
      422,
      { code: "SSO_PROVIDER_ID_TAKEN", message: "SSO provider with this providerId already exists" },
    ]);
  });
});

describe("listing, reading, changing and deleting connections", () => {
  it("lists and reads only the caller's organizations' connections; another's answers 'not found'", async () => {
    const { t, owner, organizationId } = await setUp();
    await owner.browser.post("/sso/register", payload(organizationId));
    const other = await signIn(t, "pat");
    const otherOrganization = await createOrganization(other, "globex");
    await other.browser.post("/sso/register", payload(otherOrganization, { providerId: "globex" }));
    const listed = await owner.browser.get<{ providers: { providerId: string }[] }>("/sso/providers");
    expect(listed.body.providers.map((provider) => provider.providerId)).toEqual(["corp"]);
    const read = await owner.browser.get("/sso/get-provider?providerId=corp");
    expect(read.body).toMatchObject({ providerId: "corp", oidcConfig: { clientIdLastFour: "****t-id" } });
    const foreign = await owner.browser.get("/sso/get-provider?providerId=globex");
    expect([foreign.status, foreign.body]).toEqual([
      404,
      { code: "SSO_PROVIDER_NOT_FOUND", message: "SSO provider not found" },
    ]);
    const deleteForeign = await owner.browser.post("/sso/delete-provider", { providerId: "globex" });
    expect(deleteForeign.status).toBe(404);
    expect(await t.db.collection("ssoProviders").countDocuments({ providerId: "globex" })).toBe(1);
  });

  it("a connection turned off refuses sign-ins; deleting it removes its users' accounts, not the users", async () => {
    const { t, owner, organizationId } = await setUp();
    await owner.browser.post("/sso/register", payload(organizationId));
    server.setIdentity(IDP, { id: "sub-7", email: "gus@acme.test", emailVerified: true, name: "Gus" });
    const browser = new TestBrowser(t.auth);
    const started = await browser.post<{ url: string }>("/sign-in/sso", {
      providerId: "corp",
      callbackURL: `${TEST_ORIGIN}/`,
    });
    const authorized = await server.authorize(started.body.url);
    expect((await browser.get(authorized.callbackURL)).headers.get("location")).toBe(`${TEST_ORIGIN}/`);
    expect(await t.db.collection("accounts").countDocuments({ providerId: "corp" })).toBe(1);

    const empty = await owner.browser.post("/sso/update-provider", { providerId: "corp" });
    expect(empty.body).toEqual({ code: "SSO_NO_UPDATE_FIELDS", message: "No fields provided for update" });
    const off = await owner.browser.post("/sso/update-provider", { providerId: "corp", enabled: false });
    expect(off.body).toMatchObject({ providerId: "corp", enabled: false });
    const refused = await new TestBrowser(t.auth).post("/sign-in/sso", {
      providerId: "corp",
      callbackURL: `${TEST_ORIGIN}/`,
    });
    expect([refused.status, refused.body]).toEqual([
      403,
      { code: "SSO_PROVIDER_DISABLED", message: "This SSO connection is turned off" },
    ]);

    const deleted = await owner.browser.post("/sso/delete-provider", { providerId: "corp" });
    expect(deleted.body).toEqual({ success: true });
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
    expect(await t.db.collection("accounts").countDocuments({ providerId: "corp" })).toBe(0);
    expect(await t.db.collection("users").countDocuments({ email: "gus@acme.test" })).toBe(1);
    const actions = await t.db
      .collection("auditEvents")
      .find({ action: { $regex: "^organization\\.sso-" } })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    expect(actions.map((event) => event.action)).toEqual([
      "organization.sso-register",
      "organization.sso-sign-in",
      "organization.sso-update",
      "organization.sso-delete",
    ]);
  });
  it("a deleted organization's connection signs nobody in", async () => {
    const { t, owner, organizationId } = await setUp();
    await owner.browser.post("/sso/register", payload(organizationId));
    const deleted = await owner.browser.post("/organization/delete", { organizationId });
    expect(deleted.status).toBe(200);
    const refused = await new TestBrowser(t.auth).post("/sign-in/sso", {
      providerId: "corp",
      callbackURL: `${TEST_ORIGIN}/`,
    });
    expect([refused.status, refused.body]).toEqual([
      404,
      { code: "SSO_PROVIDER_NOT_FOUND", message: "SSO provider not found" },
    ]);
  });
});

describe("testing a connection", () => {
  it("reports the checks passed, or what is wrong as a catalogue message", async () => {
    const { owner, organizationId } = await setUp();
    await owner.browser.post("/sso/register", payload(organizationId));
    const passed = await owner.browser.post("/sso/test-provider", { providerId: "corp" });
    expect(passed.body).toEqual({ success: true, checks: ["discovery", "issuer", "jwks"] });

    const discovery = await (await fetch(`${server.issuer(IDP)}/.well-known/openid-configuration`)).json();
    server.fail(IDP, ".well-known/openid-configuration", {
      status: 200,
      body: { ...discovery, issuer: "https://impostor.example" },
      times: 1,
    });
    const impostor = await owner.browser.post("/sso/test-provider", { providerId: "corp" });
    expect([impostor.status, impostor.body]).toEqual([
      400,
      {
        code: "SSO_DISCOVERY_INVALID",
        message:
          "The discovery document names another issuer, or lacks the authorization, token or JWKS endpoint",
      },
    ]);
    server.fail(IDP, "jwks", { status: 200, body: { keys: [] }, times: 1 });
    const noKeys = await owner.browser.post("/sso/test-provider", { providerId: "corp" });
    expect(noKeys.body).toMatchObject({ code: "SSO_JWKS_UNUSABLE" });
    server.fail(IDP, ".well-known/openid-configuration", { status: 503, times: 1 });
    const down = await owner.browser.post("/sso/test-provider", { providerId: "corp" });
    expect(down.body).toMatchObject({ code: "SSO_DISCOVERY_FAILED" });
  });
});

describe("sign-in refusals", () => {
  it("answers what is missing or what the IdP did, never a session", async () => {
    const { t, owner, organizationId } = await setUp();
    const incomplete = await owner.browser.post(
      "/sso/register",
      payload(organizationId, {
        oidcConfig: {
          clientId: TEST_CLIENT_ID,
          clientSecret: TEST_CLIENT_SECRET,
          skipDiscovery: true,
          authorizationEndpoint: `${server.issuer(IDP)}/authorize`,
        },
      }),
    );
    expect([incomplete.status, incomplete.body]).toEqual([
      400,
      {
        code: "SSO_ENDPOINTS_REQUIRED",
        message: "With skipDiscovery, give authorizationEndpoint, tokenEndpoint and jwksEndpoint",
      },
    ]);
    await owner.browser.post("/sso/register", payload(organizationId));
    const nowhere = await new TestBrowser(t.auth).post("/sign-in/sso", { callbackURL: `${TEST_ORIGIN}/` });
    expect([nowhere.status, nowhere.body]).toEqual([
      400,
      {
        code: "SSO_SIGN_IN_TARGET_REQUIRED",
        message: "email, organizationSlug, domain or providerId is required",
      },
    ]);

    const errorOf = async (prepare: () => void) => {
      const browser = new TestBrowser(t.auth);
      const started = await browser.post<{ url: string }>("/sign-in/sso", {
        providerId: "corp",
        callbackURL: `${TEST_ORIGIN}/`,
        errorCallbackURL: `${TEST_ORIGIN}/sign-in`,
      });
      prepare();
      const authorized = await server.authorize(started.body.url);
      const answer = await browser.get(authorized.callbackURL);
      expect((await browser.get("/get-session")).body).toBeNull();
      return new URL(answer.headers.get("location") ?? "").searchParams.get("error");
    };
    expect(await errorOf(() => server.fail(IDP, "authorize", { error: "access_denied", times: 1 }))).toBe(
      "SSO_IDP_ERROR",
    );
    expect(await errorOf(() => server.fail(IDP, "token", { status: 503, body: {}, times: 1 }))).toBe(
      "SSO_IDP_UNAVAILABLE",
    );
    expect(
      await errorOf(() =>
        server.setIdentity(IDP, { id: "n-1", email: null, emailVerified: false, name: "N" }),
      ),
    ).toBe("SSO_EMAIL_MISSING");
    expect(await t.db.collection("users").countDocuments()).toBe(1);
  });
});
