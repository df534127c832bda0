import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { mailedLink } from "#test/mail.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { createOrganization, memberRoles } from "#test/organization.ts";
import { providerConfig, runSocialFlow } from "#test/social.ts";
import { auditRows, useDomainTestbed, verifyDomainByDns } from "#test/sso-domains.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Auto-join: with a verified domain's auto-join on, a user whose address of that domain becomes
 * verified becomes a member with the domain's role; an unverified address never does.
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

async function setUp(): Promise<{ t: TestAuth; org: string }> {
  const t = await openAuth({
    ...testbed.options,
    emailVerification: { sendOnSignUp: true },
    socialProviders: { github: providerConfig(oauth, "github") },
  });
  const boss = await signUpUser(t, { email: "boss@acme.test", emailVerified: true });
  const owner = { browser: boss.browser, userId: boss.id, email: boss.email };
  const org = await createOrganization(owner, "acme", "Acme Corp");
  await verifyDomainByDns(testbed, owner, "acme.test", { autoJoin: true, autoJoinRole: "admin" });
  return { t, org };
}

describe("auto-join by a verified domain", () => {
  it("a new address stays outside until verified; its verification link makes it a member (audited)", async () => {
    const { t, org } = await setUp();
    const user = await signUpUser(t, { email: "ann@acme.test" });
    expect((await memberRoles(t, org))[user.id]).toBeUndefined();
    const link = mailedLink(t, "ann@acme.test", "/verify-email");
    const verified = await new TestBrowser(t.auth).get(link.slice(link.indexOf("/verify-email")));
    expect(verified.status).toBeLessThan(400);
    expect((await memberRoles(t, org))[user.id]).toBe("admin");
    const [event] = await auditRows(t, "organization.domain-auto-join");
    expect(event).toMatchObject({
      subjectId: new ObjectId(user.id),
      details: { organizationId: org, domain: "acme.test", role: "admin" },
    });
  });

  it("a sign-up through a provider that verified the address joins at once", async () => {
    const { t, org } = await setUp();
    oauth.setIdentity("github", { email: "bob@acme.test", emailVerified: true });
    await runSocialFlow(new TestBrowser(t.auth), oauth, { provider: "github", callbackURL: "/dashboard" });
    const bob = await t.db.collection("users").findOne({ email: "bob@acme.test" });
    expect((await memberRoles(t, org))[String(bob!._id)]).toBe("admin");
  });

  it("a provider that did not verify the address joins nobody", async () => {
    const { t, org } = await setUp();
    oauth.setIdentity("github", { email: "eve@acme.test", emailVerified: false });
    await runSocialFlow(new TestBrowser(t.auth), oauth, { provider: "github", callbackURL: "/dashboard" });
    const eve = await t.db.collection("users").findOne({ email: "eve@acme.test" });
    expect(eve).not.toBeNull();
    expect((await memberRoles(t, org))[String(eve!._id)]).toBeUndefined();
    expect(await auditRows(t, "organization.domain-auto-join")).toEqual([]);
  });
});
