import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, useOAuthServer } from "#test/oauth-server.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useDomainTestbed, verifyDomainByDns } from "#test/sso-domains.ts";
import { TEST_ORIGIN, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * SSO with a domain the organization proved (features/sso-domains, DNS proof on 127.0.0.1): the
 * address's domain routes the sign-in, and only that organization's connection may reach an existing
 * user of the domain. Another organization declaring the same domain routes nobody and reaches nobody.
 */

const server = useOAuthServer();
const testbed = useDomainTestbed();
const openAuth = useFreshTestAuth();

async function setUp() {
  server.reset();
  const t = await openAuth({ ...testbed.options, outbound: { allowPrivateAddresses: true } });
  const owner = await signIn(t, "olivia");
  const acme = await createOrganization(owner, "acme");
  // A user of the domain from before the organization required SSO for it.
  const grace = await signUpUser(t, { email: "grace@acme.test", name: "Grace", emailVerified: true });
  await verifyDomainByDns(testbed, owner, "acme.test");
  const register = (who: typeof owner, organizationId: string, providerId: string, idp: string) =>
    who.browser.post<{ domainVerified: boolean }>("/sso/register", {
      providerId,
      issuer: server.issuer(idp),
      domain: "acme.test",
      organizationId,
      oidcConfig: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET },
    });
  const acmeConnection = await register(owner, acme, "acme", "acme-idp");
  // Required once the organization has its connection (SSO_CONNECTION_REQUIRED before).
  const required = await owner.browser.post("/organization/update-domain-settings", {
    domain: "acme.test",
    requireSso: true,
  });
  expect(required.status).toBe(200);
  const rival = await signIn(t, "rita");
  const globex = await createOrganization(rival, "globex");
  const globexConnection = await register(rival, globex, "globex", "globex-idp");
  return { t, acme, grace, acmeConnection, globexConnection };
}

async function signInThrough(browser: TestBrowser, body: Record<string, unknown>) {
  const started = await browser.post<{ url: string }>("/sign-in/sso", {
    callbackURL: `${TEST_ORIGIN}/`,
    errorCallbackURL: `${TEST_ORIGIN}/sign-in`,
    ...body,
  });
  expect(started.status).toBe(200);
  const authorized = await server.authorize(started.body.url);
  return { started, answer: await browser.get(authorized.callbackURL) };
}

describe("SSO with a verified domain", () => {
  it("the email's domain routes to the organization that proved it; its connection signs in the existing user and makes them a member", async () => {
    const { t, acme, grace, acmeConnection, globexConnection } = await setUp();
    expect(acmeConnection.body.domainVerified).toBe(true);
    expect(globexConnection.body.domainVerified).toBe(false);
    server.setIdentity("acme-idp", { id: "g-1", email: "grace@acme.test", emailVerified: true, name: "G" });
    const browser = new TestBrowser(t.auth);
    const { started, answer } = await signInThrough(browser, { email: "grace@acme.test" });
    expect(started.body.url.startsWith(`${server.issuer("acme-idp")}/authorize?`)).toBe(true);
    // Require-SSO refuses the other ways in; SSO itself is the way.
    expect(answer.headers.get("location")).toBe(`${TEST_ORIGIN}/`);
    const session = await browser.get<{ user: { id: string } }>("/get-session");
    expect(session.body.user.id).toBe(grace.id);
    const member = await t.db
      .collection("members")
      .findOne({ organizationId: new ObjectId(acme), userId: new ObjectId(grace.id) });
    expect(member?.role).toBe("member");
  });

  it("another organization's connection declaring the domain cannot reach a user of it", async () => {
    const { t } = await setUp();
    server.setIdentity("globex-idp", { id: "x-1", email: "grace@acme.test", emailVerified: true, name: "X" });
    const browser = new TestBrowser(t.auth);
    const { answer } = await signInThrough(browser, { providerId: "globex" });
    const location = new URL(answer.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("SSO_ACCOUNT_NOT_LINKABLE");
    expect(await t.db.collection("accounts").countDocuments({ providerId: "globex" })).toBe(0);
    expect((await browser.get("/get-session")).body).toBeNull();
  });
});
