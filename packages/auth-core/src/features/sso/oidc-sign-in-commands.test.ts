import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { type OidcIdp, startOidcIdp } from "#test/oidc-idp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useDomainTestbed, verifyDomainByDns } from "#test/sso-domains.ts";
import { commandsWithinRecentRead, TEST_ORIGIN, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { RECENT_READ_MS } from "../../db/recent-reads.ts";

/**
 * The database commands of a returning user's SSO sign-in through OIDC (the bench's "SSO sign-in"
 * row, bench/versus-sso.ts, docs/scale.md): each is a round trip on every sign-in, so the count is
 * kept here. The event relay's commands run beside the request and are not counted (test-auth.ts).
 * And the client secret each instance keeps opened (oidc-client.ts openClientSecret) follows a change.
 * Whether the organization vouches for the address's domain (jit.ts) is read only where it can change
 * the outcome: for a member whose address is verified already, it cannot.
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
const testbed = useDomainTestbed();

/**
 * An organization with the IdP's connection "acme"; answers the owner's browser. With `verifiedDomain`
 * the organization has proved acme.test, so the IdP vouches for its addresses: a user it creates
 * has a verified address.
 */
async function setUp({ verifiedDomain = false } = {}) {
  const t = await openAuth({ ...testbed.options, outbound: { allowPrivateAddresses: true } });
  const owner = await signIn(t, "olivia");
  const organizationId = await createOrganization(owner, "acme");
  if (verifiedDomain) await verifyDomainByDns(testbed, owner, "acme.test");
  const registered = await owner.browser.post("/sso/register", {
    providerId: "acme",
    issuer: idp.issuer,
    domain: "acme.test",
    organizationId,
    oidcConfig: { ...CLIENT, scopes: ["openid", "email", "profile"] },
  });
  expect(registered.status).toBe(200);
  idp.setAccount("lin-1", { email: "lin@acme.test", email_verified: true, name: "Lin" });
  return { t, owner: owner.browser, signedInOwner: owner };
}

/** One sign-in of lin-1 in a new browser: the commands of the start and of the callback, and where the callback led. */
async function signInCounted(t: TestAuth) {
  const browser = new TestBrowser(t.auth);
  let url = "";
  const start = await t.commands(async () => {
    const started = await browser.post<{ url: string }>("/sign-in/sso", {
      providerId: "acme",
      callbackURL: "/",
    });
    expect(started.status).toBe(200);
    url = started.body.url;
  });
  const callbackURL = await idp.signIn(url, "lin-1");
  let location: string | null = null;
  let hasSession = false;
  const callback = await t.commands(async () => {
    const answer = await browser.get(callbackURL);
    expect(answer.status).toBe(302);
    location = answer.headers.get("location");
    hasSession = answer.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line));
  });
  return { start, callback, location: location as string | null, hasSession };
}

describe("an SSO sign-in's database commands", () => {
  it("costs 3 commands to start and 10 in 8 round trips for the callback of a returning member whose address is verified (no discovery or key fetch, no domain read, nothing written for the membership)", async () => {
    const { t } = await setUp({ verifiedDomain: true });
    await signInCounted(t); // creates the user (address verified: the domain is the organization's), the account and the membership
    expect((await t.db.collection("users").findOne({ email: "lin@acme.test" }))?.emailVerified).toBe(true);
    const returning = await signInCounted(t);
    expect(returning.hasSession).toBe(true);
    expect(returning.start).toEqual([
      "find:ssoProviders", // the connection by providerId
      "find:organizations", // its organization still exists
      "insert:verifications", // the OAuth state
    ]);
    // The state's read and use, and beside them the connection and its organization (callback.ts):
    // two chains of two, so compared as a set with each chain's order.
    const callback = returning.callback;
    expect(callback.slice(0, 4).sort()).toEqual([
      "delete:verifications",
      "find:organizations",
      "find:ssoProviders",
      "find:verifications",
    ]);
    expect(callback.indexOf("find:verifications")).toBeLessThan(callback.indexOf("delete:verifications"));
    expect(callback.indexOf("find:ssoProviders")).toBeLessThan(callback.indexOf("find:organizations"));
    expect(callback.slice(4)).toEqual([
      "find:accounts", // the (connection, subject) account
      "find:users", // its user, whose address is verified: the domain cannot change anything
      "update:accounts", // the new tokens, sealed
      "find:members", // already a member: nothing written
      "insert:sessions",
      "insert:auditEvents", // organization.sso-sign-in
    ]);
  });

  it("reads the domain for a returning member whose address is unverified, after the tokens: 11 commands in 9 round trips; once the organization proves it, the next sign-in verifies the address", async () => {
    const { t, signedInOwner } = await setUp();
    await signInCounted(t); // acme.test is not the organization's: the user's address stays unverified
    const returning = await signInCounted(t);
    expect(returning.hasSession).toBe(true);
    expect(returning.callback.slice(4)).toEqual([
      "find:accounts",
      "find:users", // its address is unverified and the identity's: the domain may verify it
      "update:accounts",
      "find:organizationDomains", // does the organization vouch for the address's domain (jit.ts): no
      "find:members",
      "insert:sessions",
      "insert:auditEvents",
    ]);
    expect((await t.db.collection("users").findOne({ email: "lin@acme.test" }))?.emailVerified).toBe(false);
    await verifyDomainByDns(testbed, signedInOwner, "acme.test");
    expect((await signInCounted(t)).hasSession).toBe(true);
    expect((await t.db.collection("users").findOne({ email: "lin@acme.test" }))?.emailVerified).toBe(true);
  });

  it("a changed client secret is the one the next sign-in sends, though the previous one was opened and kept", async () => {
    const { t, owner } = await setUp();
    expect((await signInCounted(t)).hasSession).toBe(true);
    const changed = await owner.post("/sso/update-provider", {
      providerId: "acme",
      oidcConfig: { clientSecret: "not-the-secret-the-idp-knows" },
    });
    expect(changed.status).toBe(200);
    // The IdP refuses the token request of a wrong secret: the new secret was the one sent.
    const refused = await signInCounted(t);
    expect(refused.hasSession).toBe(false);
    expect(new URL(refused.location ?? "", TEST_ORIGIN).searchParams.get("error")).toBe("SSO_IDP_ERROR");
    const restored = await owner.post("/sso/update-provider", {
      providerId: "acme",
      oidcConfig: { clientSecret: CLIENT.clientSecret },
    });
    expect(restored.status).toBe(200);
    expect((await signInCounted(t)).hasSession).toBe(true);
  });
});

/** A sign-in of lin-1 in a new browser, uncounted: where the callback led and whether it signed in. */
async function signInOnce(t: TestAuth) {
  const browser = new TestBrowser(t.auth);
  const started = await browser.post<{ url: string }>("/sign-in/sso", {
    providerId: "acme",
    callbackURL: "/",
  });
  expect(started.status).toBe(200);
  const answer = await browser.get(await idp.signIn(started.body.url, "lin-1"));
  const hasSession = answer.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line));
  return { location: answer.headers.get("location"), hasSession };
}

/** A new browser's start through "acme" answers 403 SSO_PROVIDER_DISABLED. */
async function expectStartRefused(t: TestAuth) {
  const refused = await new TestBrowser(t.auth).post("/sign-in/sso", {
    providerId: "acme",
    callbackURL: "/",
  });
  expect([refused.status, (refused.body as { code?: string }).code]).toEqual([403, "SSO_PROVIDER_DISABLED"]);
}

const errorOf = (location: string | null) => new URL(location ?? "", TEST_ORIGIN).searchParams.get("error");

describe("what an instance remembers of a connection (db/recent-reads.ts)", () => {
  it("a sign-in reads its connection once for its start and callback; the next sign-in at once reads none", async () => {
    const { t } = await setUp();
    const commands = await commandsWithinRecentRead(t, async () => {
      expect((await signInOnce(t)).hasSession).toBe(true);
      expect((await signInOnce(t)).hasSession).toBe(true);
    });
    expect(commands.filter((command) => command === "find:ssoProviders")).toHaveLength(1);
  });

  it("a connection turned off through the instance refuses the very next start, and the callback of a sign-in started before", async () => {
    const { t, owner } = await setUp();
    const browser = new TestBrowser(t.auth);
    const started = await browser.post<{ url: string }>("/sign-in/sso", {
      providerId: "acme",
      callbackURL: "/",
    });
    expect(started.status).toBe(200); // the connection read and remembered
    const callbackURL = await idp.signIn(started.body.url, "lin-1");
    expect((await owner.post("/sso/update-provider", { providerId: "acme", enabled: false })).status).toBe(
      200,
    );
    await expectStartRefused(t);
    const callback = await browser.get(callbackURL);
    expect(errorOf(callback.headers.get("location"))).toBe("SSO_PROVIDER_DISABLED");
    expect(await t.db.collection("sessions").countDocuments({})).toBe(1); // the owner's only
  });

  it("a connection turned off by another process (a write to the database) refuses sign-ins within the second", async () => {
    const { t } = await setUp();
    expect((await signInOnce(t)).hasSession).toBe(true);
    const written = await t.db
      .collection("ssoProviders")
      .updateOne({ providerId: "acme" }, { $set: { enabled: false } });
    expect(written.modifiedCount).toBe(1);
    await sleep(RECENT_READ_MS + 50);
    await expectStartRefused(t);
  });
});
