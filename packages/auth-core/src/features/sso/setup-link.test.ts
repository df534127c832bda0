import { describe, expect, it } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { useOidcIdp } from "#test/oidc-idp.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { TEST_ORIGIN, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * The expiring SSO setup link (issue 31 §2): an owner or admin creates it; the customer's IT admin,
 * with no account, opens it once and may then set up that one organization's connections (against
 * a real OIDC provider, oidc-provider on 127.0.0.1) and nothing else. Every step is audited.
 */

const CLIENT = { clientId: "tessera-acme", clientSecret: "acme-client-secret-0123456789" };
const REDIRECT_URI = `${TEST_ORIGIN}/api/auth/sso/callback/acme`;
const SETUP_COOKIE = "tessera.sso_setup";
const INVALID = {
  code: "SSO_SETUP_LINK_INVALID",
  message: "This setup link is invalid, has expired or has already been used",
};
const UNAUTHORIZED = { code: "UNAUTHORIZED", message: "unauthorized" };

const idp = useOidcIdp([{ ...CLIENT, redirectUri: REDIRECT_URI }]);

const openAuth = useFreshTestAuth();

async function setUp() {
  const t = await openAuth({ outbound: { allowPrivateAddresses: true } }, { frozen: true });
  const owner = await signIn(t, "olivia");
  const organizationId = await createOrganization(owner, "acme", "Acme Corp");
  return { t, owner, organizationId };
}

async function createLink(owner: { browser: TestBrowser }, organizationId: string) {
  const res = await owner.browser.post<{ url: string; expiresAt: string }>("/sso/create-setup-link", {
    organizationId,
    email: "it@acme.test",
  });
  expect(res.status).toBe(200);
  return { ...res.body, token: res.body.url.split("/").pop()! };
}

function oidcConnection(organizationId?: string) {
  return {
    providerId: "acme",
    issuer: idp().issuer,
    domain: "acme.test",
    ...(organizationId ? { organizationId } : {}),
    oidcConfig: CLIENT,
  };
}

describe("creating a setup link", () => {
  it("is for the organization's owners and admins only; the URL is the app's page with a 72-hour token", async () => {
    const { t, owner, organizationId } = await setUp();
    const member = await signIn(t, "mo");
    await addMember(t, organizationId, member, "member");
    const asMember = await member.browser.post("/sso/create-setup-link", { organizationId });
    expect(asMember.status).toBe(403);
    expect(asMember.body).toEqual({
      code: "SSO_MANAGE_NOT_ALLOWED",
      message: "You must be an organization owner or admin to manage its SSO providers",
    });
    const outsider = await signIn(t, "oscar");
    const asOutsider = await outsider.browser.post("/sso/create-setup-link", { organizationId });
    expect(asOutsider.body).toEqual({
      code: "NOT_A_MEMBER_OF_ORGANIZATION",
      message: "You are not a member of this organization",
    });
    const anonymous = await new TestBrowser(t.auth).post("/sso/create-setup-link", { organizationId });
    expect(anonymous.status).toBe(401);
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^sso-setup/ })).toBe(0);

    const link = await createLink(owner, organizationId);
    expect(link.url).toMatch(/^http:\/\/localhost:3000\/sso-setup\/[A-Za-z0-9]{43}$/);
    expect(new Date(link.expiresAt).getTime() - t.now().getTime()).toBe(72 * 3600 * 1000);
    const rows = await t.db
      .collection("verifications")
      .find({ identifier: /^sso-setup/ })
      .toArray();
    expect(rows.map((row) => row.identifier).join(" ")).not.toContain(link.token);
    const [event] = await auditEvents(t, { action: "organization.sso-setup-link" });
    expect(event).toMatchObject({
      actorId: expect.anything(),
      details: { organizationId, email: "it@acme.test", expiresAt: link.expiresAt },
    });
  });
});

describe("opening a setup link", () => {
  it("works once: the first open sets a scoped HttpOnly cookie, a second open is refused", async () => {
    const { t, owner, organizationId } = await setUp();
    const { token, expiresAt } = await createLink(owner, organizationId);
    const admin = new TestBrowser(t.auth);
    const opened = await admin.post("/sso/open-setup-link", { token });
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      organization: { id: organizationId, name: "Acme Corp", slug: "acme" },
      expiresAt,
    });
    const cookie = opened.headers.getSetCookie().find((line) => line.startsWith(`${SETUP_COOKIE}=`))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain(`Max-Age=${72 * 3600}`);
    expect(opened.headers.getSetCookie().some((line) => line.startsWith("tessera.session_token="))).toBe(
      false,
    );
    const again = await new TestBrowser(t.auth).post("/sso/open-setup-link", { token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID);
    expect(again.headers.getSetCookie()).toEqual([]);
    const unknown = await new TestBrowser(t.auth).post("/sso/open-setup-link", { token: "x".repeat(43) });
    expect(unknown.body).toEqual(INVALID);
    const [event] = await auditEvents(t, { action: "organization.sso-setup-open" });
    expect(event).toMatchObject({ actorId: null, details: { organizationId } });
    expect(event!.actor).toMatch(/^setup-link:/);
  });

  it("expires after 72 hours, unopened or opened", async () => {
    const { t, owner, organizationId } = await setUp();
    const unopened = await createLink(owner, organizationId);
    t.advance(72 * 3600);
    const late = await new TestBrowser(t.auth).post("/sso/open-setup-link", { token: unopened.token });
    expect(late.body).toEqual(INVALID);
    const second = await createLink(owner, organizationId);
    const admin = new TestBrowser(t.auth);
    expect((await admin.post("/sso/open-setup-link", { token: second.token })).status).toBe(200);
    expect((await admin.get("/sso/providers")).status).toBe(200);
    t.advance(72 * 3600);
    const expired = await admin.get("/sso/providers");
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(UNAUTHORIZED);
  });

  it("a new link revokes the earlier one, opened or not", async () => {
    const { t, owner, organizationId } = await setUp();
    const first = await createLink(owner, organizationId);
    const admin = new TestBrowser(t.auth);
    expect((await admin.post("/sso/open-setup-link", { token: first.token })).status).toBe(200);
    const unopened = await createLink(owner, organizationId);
    await createLink(owner, organizationId);
    expect((await admin.get("/sso/providers")).status).toBe(401);
    const stale = await new TestBrowser(t.auth).post("/sso/open-setup-link", { token: unopened.token });
    expect(stale.body).toEqual(INVALID);
  });
});

describe("what the setup cookie allows", () => {
  async function openedSetup() {
    const fixture = await setUp();
    const { token } = await createLink(fixture.owner, fixture.organizationId);
    const admin = new TestBrowser(fixture.t.auth);
    expect((await admin.post("/sso/open-setup-link", { token })).status).toBe(200);
    return { ...fixture, admin };
  }

  it("registers, reads, updates and tests an OIDC connection of its organization, each audited", async () => {
    const { t, owner, organizationId, admin } = await openedSetup();
    const registered = await admin.post<Record<string, unknown>>("/sso/register", oidcConnection());
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ providerId: "acme", organizationId, redirectURI: REDIRECT_URI });
    const stored = await t.db.collection("ssoProviders").findOne({ providerId: "acme" });
    expect(stored?.userId.toHexString()).toBe(owner.userId);
    const listed = await admin.get<{ providers: { providerId: string }[] }>("/sso/providers");
    expect(listed.body.providers.map((provider) => provider.providerId)).toEqual(["acme"]);
    expect((await admin.get("/sso/get-provider?providerId=acme")).status).toBe(200);
    const updated = await admin.post("/sso/update-provider", { providerId: "acme", enabled: false });
    expect(updated.status).toBe(200);
    const tested = await admin.post("/sso/test-provider", { providerId: "acme" });
    expect(tested.body).toEqual({ success: true, checks: ["discovery", "issuer", "jwks"] });
    const events = await auditEvents(t, { action: /^organization\.sso-(register|update|test)$/ });
    expect(events.map((event) => [event.action, event.actorId, event.actor?.slice(0, 11)])).toEqual([
      ["organization.sso-register", null, "setup-link:"],
      ["organization.sso-update", null, "setup-link:"],
      ["organization.sso-test", null, "setup-link:"],
    ]);
    expect(events[2]!.details).toMatchObject({ passed: ["discovery", "issuer", "jwks"] });
  });

  it("reaches no other organization: register elsewhere 403, another's connection 404, nothing written", async () => {
    const { t, admin } = await openedSetup();
    const other = await signIn(t, "pat");
    const otherId = await createOrganization(other, "globex");
    const elsewhere = await admin.post("/sso/register", oidcConnection(otherId));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toEqual({
      code: "SSO_SETUP_LINK_OTHER_ORGANIZATION",
      message: "This setup link is for another organization",
    });
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
    const theirs = await other.browser.post("/sso/register", {
      ...oidcConnection(otherId),
      providerId: "globex",
    });
    expect(theirs.status).toBe(200);
    for (const res of [
      await admin.get("/sso/get-provider?providerId=globex"),
      await admin.post("/sso/update-provider", { providerId: "globex", enabled: false }),
      await admin.post("/sso/test-provider", { providerId: "globex" }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "SSO_PROVIDER_NOT_FOUND", message: "SSO provider not found" });
    }
    expect((await admin.get<{ providers: unknown[] }>("/sso/providers")).body.providers).toEqual([]);
    const globex = await t.db.collection("ssoProviders").findOne({ providerId: "globex" });
    expect(globex?.enabled).toBe(true);
  });

  it("is no session: get-session is empty, organization and delete endpoints answer 401", async () => {
    const { t, organizationId, admin } = await openedSetup();
    expect((await admin.post("/sso/register", oidcConnection())).status).toBe(200);
    const session = await admin.get("/get-session");
    expect(session.status).toBe(200);
    expect(session.body).toBeNull();
    for (const res of [
      await admin.get(`/organization/get-full-organization?organizationId=${organizationId}`),
      await admin.post("/organization/update", { organizationId, data: { name: "Pwned" } }),
      await admin.post("/sso/delete-provider", { providerId: "acme" }),
      await admin.post("/sso/create-setup-link", { organizationId }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(1);
  });

  it("a forged or altered cookie is no setup cookie", async () => {
    const { t, admin } = await openedSetup();
    const forged = new TestBrowser(t.auth);
    const value = decodeURIComponent(admin.cookies.get(SETUP_COOKIE)!);
    forged.cookies.set(SETUP_COOKIE, encodeURIComponent(value.replace(/^sso-setup:./, "sso-setup:0")));
    const res = await forged.post("/sso/register", oidcConnection());
    expect(res.status).toBe(401);
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
  });
});
