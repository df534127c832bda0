import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { createOrganization, type SignedIn } from "#test/organization.ts";
import { newAuthenticator, registerPasskey, signInWithPasskey } from "#test/passkey.ts";
import { mailCount, mailedSignIn, PASSWORDLESS, passwordlessRows } from "#test/passwordless.ts";
import { errorOf, providerConfig, runSocialFlow } from "#test/social.ts";
import {
  auditRows,
  claimDomain,
  turnOnSsoConnection,
  useDomainTestbed,
  verifyDomainByDns,
} from "#test/sso-domains.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Require SSO: an address of a verified domain whose organization requires single sign-on is
 * refused password, mailed-link/code and social sign-in, naming the organization; its owners keep
 * password sign-in (audited); an unverified claim enforces nothing.
 */
const openAuth = useFreshTestAuth();
const testbed = useDomainTestbed();
let oauth: OAuthServer;
beforeAll(async () => {
  oauth = await startOAuthServer();
});
afterAll(async () => {
  await oauth.close();
});

const PASSWORD = "correct horse battery";
const SSO_REQUIRED = {
  code: "SSO_REQUIRED",
  message: "Sign in with Acme Corp's single sign-on",
  organization: "Acme Corp",
  organizationSlug: "acme",
};

interface Cast {
  t: TestAuth;
  owner: SignedIn;
  org: string;
}

/** boss@acme.test owns "Acme Corp"; ann@acme.test has a password account; acme.test is claimed. */
async function setUp(options: { verified: boolean }): Promise<Cast> {
  const t = await openAuth({
    ...testbed.options,
    ...PASSWORDLESS,
    socialProviders: { github: providerConfig(oauth, "github") },
  });
  const boss = await signUpUser(t, { email: "boss@acme.test", emailVerified: true });
  const owner = { browser: boss.browser, userId: boss.id, email: boss.email };
  const org = await createOrganization(owner, "acme", "Acme Corp");
  await signUpUser(t, { email: "ann@acme.test", emailVerified: true });
  if (options.verified) await verifyDomainByDns(testbed, owner, "acme.test", { requireSso: true });
  else {
    await claimDomain(owner, "acme.test");
    await turnOnSsoConnection(owner, "acme.test");
    await owner.browser.post("/organization/update-domain-settings", {
      domain: "acme.test",
      requireSso: true,
    });
  }
  return { t, owner, org };
}

async function setRequireSso(owner: SignedIn, requireSso: boolean): Promise<void> {
  const res = await owner.browser.post("/organization/update-domain-settings", {
    domain: "acme.test",
    requireSso,
  });
  if (res.status !== 200) throw new Error(`update-domain-settings answered ${res.status}`);
}

const sessionsOf = async (t: TestAuth, email: string) => {
  const user = await t.db.collection("users").findOne({ email });
  return user ? t.db.collection("sessions").countDocuments({ userId: user._id }) : 0;
};

describe("require SSO for a verified domain", () => {
  it("refuses the password sign-in, naming the organization, and creates no session", async () => {
    const { t } = await setUp({ verified: true });
    const before = await sessionsOf(t, "ann@acme.test");
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ann@acme.test",
      password: PASSWORD,
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(SSO_REQUIRED);
    expect(await sessionsOf(t, "ann@acme.test")).toBe(before);
  });

  it("refuses a password sign-up of an address of the domain, storing no user", async () => {
    const { t } = await setUp({ verified: true });
    const res = await new TestBrowser(t.auth).post("/sign-up/email", {
      email: "new@acme.test",
      password: PASSWORD,
      name: "New",
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(SSO_REQUIRED);
    expect(await t.db.collection("users").findOne({ email: "new@acme.test" })).toBeNull();
  });

  it("refuses to mail a sign-in link or code to an address of the domain: 403, no mail, no record", async () => {
    const { t } = await setUp({ verified: true });
    const browser = new TestBrowser(t.auth);
    const rowsBefore = (await passwordlessRows(t)).length;
    const link = await browser.post("/sign-in/magic-link", { email: "ann@acme.test" });
    expect(link.status).toBe(403);
    expect(link.body).toEqual(SSO_REQUIRED);
    const code = await browser.post("/email-otp/send-verification-otp", {
      email: "nobody-yet@acme.test",
      type: "sign-in",
    });
    expect(code.status).toBe(403);
    expect(code.body).toEqual(SSO_REQUIRED);
    expect(mailCount(t, "ann@acme.test") + mailCount(t, "nobody-yet@acme.test")).toBe(0);
    expect((await passwordlessRows(t)).length).toBe(rowsBefore);
  });

  it("refuses the email-code sign-in of a code mailed before SSO was required", async () => {
    const { t, owner } = await setUp({ verified: true });
    const browser = new TestBrowser(t.auth);
    await setRequireSso(owner, false);
    await browser.post("/email-otp/send-verification-otp", { email: "ann@acme.test", type: "sign-in" });
    await setRequireSso(owner, true);
    const { code } = mailedSignIn(t, "ann@acme.test");
    const res = await browser.post("/sign-in/email-otp", { email: "ann@acme.test", otp: code });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(SSO_REQUIRED);
    expect(browser.cookies.size).toBe(0);
  });

  it("answers a wrong code of an address requiring SSO with INVALID_OTP, not SSO_REQUIRED: the policy, read beside the record, is told only after a right code", async () => {
    const { t, owner } = await setUp({ verified: true });
    const browser = new TestBrowser(t.auth);
    await setRequireSso(owner, false);
    await browser.post("/email-otp/send-verification-otp", { email: "ann@acme.test", type: "sign-in" });
    await setRequireSso(owner, true);
    const { code } = mailedSignIn(t, "ann@acme.test");
    const before = await sessionsOf(t, "ann@acme.test");
    const otp = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const res = await browser.post("/sign-in/email-otp", { email: "ann@acme.test", otp });
    expect([res.status, res.body]).toEqual([400, { code: "INVALID_OTP", message: "Invalid OTP" }]);
    expect(await sessionsOf(t, "ann@acme.test")).toBe(before);
    // The record is still there: the right code is then refused for SSO, as above.
    const right = await browser.post("/sign-in/email-otp", { email: "ann@acme.test", otp: code });
    expect([right.status, right.body]).toEqual([403, SSO_REQUIRED]);
    expect(await sessionsOf(t, "ann@acme.test")).toBe(before);
  });

  it("refuses the magic-link sign-in of links mailed before SSO was required: JSON without a callback, the error code on the redirect with one", async () => {
    const { t, owner } = await setUp({ verified: true });
    const browser = new TestBrowser(t.auth);
    const mailBeforeSsoRequired = async () => {
      await setRequireSso(owner, false);
      await browser.post("/sign-in/magic-link", { email: "ann@acme.test" });
      await setRequireSso(owner, true);
      return mailedSignIn(t, "ann@acme.test").token;
    };
    const before = await sessionsOf(t, "ann@acme.test");
    const json = await browser.post("/magic-link/verify", { token: await mailBeforeSsoRequired() });
    expect(json.status).toBe(403);
    expect(json.body).toEqual(SSO_REQUIRED);
    const second = await mailBeforeSsoRequired();
    const redirect = await browser.post("/magic-link/verify", {
      token: second,
      callbackURL: "/dashboard",
    });
    expect(redirect.status).toBe(302);
    expect(errorOf(redirect.headers.get("location")!).error).toBe("SSO_REQUIRED");
    expect(await sessionsOf(t, "ann@acme.test")).toBe(before);
  });

  it("refuses a social sign-in of an address of the domain", async () => {
    const { t } = await setUp({ verified: true });
    const before = await sessionsOf(t, "ann@acme.test");
    oauth.setIdentity("github", { email: "ann@acme.test", emailVerified: true });
    const flow = await runSocialFlow(new TestBrowser(t.auth), oauth, {
      provider: "github",
      callbackURL: "/dashboard",
      errorCallbackURL: "/sign-in",
    });
    expect(errorOf(flow.location)).toMatchObject({ error: "sso_required" });
    expect(await sessionsOf(t, "ann@acme.test")).toBe(before);
  });

  it("a social sign-up of a new address of the domain writes nothing: no user, no claim, no membership", async () => {
    const { t, owner } = await setUp({ verified: true });
    const set = await owner.browser.post("/organization/update-domain-settings", {
      domain: "acme.test",
      autoJoin: true,
    });
    expect(set.status).toBe(200);
    const counts = async () =>
      Promise.all(
        ["users", "emailClaims", "members", "accounts"].map((c) => t.db.collection(c).countDocuments()),
      );
    const before = await counts();
    oauth.setIdentity("github", {
      id: "4242",
      email: "newcomer@acme.test",
      emailVerified: true,
      name: "New Comer",
      image: null,
    });
    const flow = await runSocialFlow(new TestBrowser(t.auth), oauth, {
      provider: "github",
      callbackURL: "/dashboard",
      errorCallbackURL: "/sign-in",
    });
    expect(errorOf(flow.location)).toMatchObject({ error: "sso_required" });
    expect(await t.db.collection("users").findOne({ email: "newcomer@acme.test" })).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it("refuses a passkey sign-in of an address of the domain; the owner's passkey is break-glass, audited", async () => {
    const { t, owner } = await setUp({ verified: true });
    await setRequireSso(owner, false);
    const carl = await signUpUser(t, { email: "carl@acme.test", emailVerified: true });
    const carlKey = newAuthenticator();
    expect((await registerPasskey(carl.browser, carlKey)).status).toBe(200);
    const bossKey = newAuthenticator();
    expect((await registerPasskey(owner.browser, bossKey)).status).toBe(200);
    await setRequireSso(owner, true);
    const before = await sessionsOf(t, "carl@acme.test");
    const refused = await signInWithPasskey(new TestBrowser(t.auth), carlKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(SSO_REQUIRED);
    expect(await sessionsOf(t, "carl@acme.test")).toBe(before);
    const breakGlass = await signInWithPasskey(new TestBrowser(t.auth), bossKey);
    expect(breakGlass.status).toBe(200);
    const events = await auditRows(t, "organization.sso-break-glass");
    expect(events.map((event) => event.details)).toContainEqual(expect.objectContaining({ path: "passkey" }));
  });

  it("lets an owner of the organization sign in with the password (break-glass), audited", async () => {
    const { t, owner, org } = await setUp({ verified: true });
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "boss@acme.test",
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const events = await auditRows(t, "organization.sso-break-glass");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: new ObjectId(owner.userId),
      subjectId: new ObjectId(owner.userId),
      details: { organizationId: org, path: "password" },
    });
  });

  it("a claim that is not verified enforces nothing", async () => {
    const { t } = await setUp({ verified: false });
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ann@acme.test",
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(await auditRows(t, "organization.sso-break-glass")).toEqual([]);
  });
});

describe("require SSO needs a connection turned on", () => {
  it("is refused while the organization has no connection, or only one turned off; nothing is stored", async () => {
    const t = await openAuth({ ...testbed.options });
    const boss = await signUpUser(t, { email: "boss@acme.test", emailVerified: true });
    const owner = { browser: boss.browser, userId: boss.id, email: boss.email };
    await createOrganization(owner, "acme", "Acme Corp");
    await verifyDomainByDns(testbed, owner, "acme.test");
    const requireSso = () =>
      owner.browser.post("/organization/update-domain-settings", { domain: "acme.test", requireSso: true });
    const refusal = {
      code: "SSO_CONNECTION_REQUIRED",
      message: "Turn on a single sign-on connection for this organization before requiring single sign-on",
    };
    const stored = async () =>
      (await t.db.collection("organizationDomains").findOne({ domain: "acme.test" }))?.settings;
    const none = await requireSso();
    expect([none.status, none.body]).toEqual([400, refusal]);
    expect(await stored()).toMatchObject({ requireSso: false });
    await turnOnSsoConnection(owner, "acme.test");
    const off = await owner.browser.post("/sso/update-provider", {
      providerId: "acme-test-sso",
      enabled: false,
    });
    expect(off.status).toBe(200);
    const turnedOff = await requireSso();
    expect([turnedOff.status, turnedOff.body]).toEqual([400, refusal]);
    expect(await stored()).toMatchObject({ requireSso: false });
    expect(await auditRows(t, "organization.domain-settings")).toEqual([]);
    await owner.browser.post("/sso/update-provider", { providerId: "acme-test-sso", enabled: true });
    expect((await requireSso()).status).toBe(200);
    expect(await stored()).toMatchObject({ requireSso: true });
  });
});

describe("the last connection turned on stays while SSO is required", () => {
  const refusal = {
    code: "SSO_LAST_CONNECTION_REQUIRED",
    message:
      "This organization requires single sign-on for its domains: stop requiring it before turning off or deleting its last connection",
  };

  it("is neither turned off nor deleted; with another one on, it may go; once SSO is no longer required, the last may too", async () => {
    const t = await openAuth({ ...testbed.options });
    const boss = await signUpUser(t, { email: "boss@acme.test", emailVerified: true });
    const owner = { browser: boss.browser, userId: boss.id, email: boss.email };
    await createOrganization(owner, "acme", "Acme Corp");
    await verifyDomainByDns(testbed, owner, "acme.test", { requireSso: true });
    const providers = t.db.collection("ssoProviders");
    const stored = async () =>
      (await providers.find({}, { sort: { createdAt: 1 } }).toArray()).map((p) => [p.providerId, p.enabled]);
    const audited = async () =>
      (await auditRows(t, "organization.sso-update")).length +
      (await auditRows(t, "organization.sso-delete")).length;
    const auditedBefore = await audited();
    const turnOff = (providerId: string) =>
      owner.browser.post("/sso/update-provider", { providerId, enabled: false });
    const remove = (providerId: string) => owner.browser.post("/sso/delete-provider", { providerId });

    const off = await turnOff("acme-test-sso");
    expect([off.status, off.body]).toEqual([400, refusal]);
    const deleted = await remove("acme-test-sso");
    expect([deleted.status, deleted.body]).toEqual([400, refusal]);
    expect(await stored()).toEqual([["acme-test-sso", true]]);
    expect(await audited()).toBe(auditedBefore);
    // A change that leaves it on is not refused.
    const kept = await owner.browser.post("/sso/update-provider", {
      providerId: "acme-test-sso",
      defaultRole: "admin",
    });
    expect(kept.status).toBe(200);

    // A second connection turned on: the first may go, then the second is the last.
    await turnOnSsoConnection(owner, "login.acme.test");
    expect((await turnOff("acme-test-sso")).status).toBe(200);
    expect((await remove("acme-test-sso")).status).toBe(200);
    const last = await remove("login-acme-test-sso");
    expect([last.status, last.body]).toEqual([400, refusal]);
    expect(await stored()).toEqual([["login-acme-test-sso", true]]);

    const notRequired = await owner.browser.post("/organization/update-domain-settings", {
      domain: "acme.test",
      requireSso: false,
    });
    expect(notRequired.status).toBe(200);
    expect((await remove("login-acme-test-sso")).status).toBe(200);
    expect(await stored()).toEqual([]);
  });
});
