import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { createOrganization, type SignedIn } from "#test/organization.ts";
import { PASSWORDLESS } from "#test/passwordless.ts";
import { turnOnSsoConnection, useDomainTestbed, verifyDomainByDns } from "#test/sso-domains.ts";
import { commandsWithinRecentRead, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { RECENT_READ_MS } from "../../db/recent-reads.ts";

/**
 * What an instance remembers of a domain's policy (store.ts findVerifiedDomainRowRecent): a second,
 * so the sign-ins of one domain do not each read it; a change through the instance applies to the
 * very next sign-in, one through another process within the second.
 */
const openAuth = useFreshTestAuth();
const testbed = useDomainTestbed();

const SSO_REQUIRED = {
  code: "SSO_REQUIRED",
  message: "Sign in with Acme Corp's single sign-on",
  organization: "Acme Corp",
  organizationSlug: "acme",
};

/** boss@acme.test owns "Acme Corp", which proved acme.test and has a connection on (SSO not required yet). */
async function setUp(): Promise<{ t: TestAuth; owner: SignedIn }> {
  const t = await openAuth({ ...testbed.options, ...PASSWORDLESS });
  const boss = await signUpUser(t, { email: "boss@acme.test", emailVerified: true });
  const owner = { browser: boss.browser, userId: boss.id, email: boss.email };
  await createOrganization(owner, "acme", "Acme Corp");
  await verifyDomainByDns(testbed, owner, "acme.test");
  await turnOnSsoConnection(owner, "acme.test");
  return { t, owner };
}

const mailCode = (t: TestAuth, email: string) =>
  new TestBrowser(t.auth).post("/email-otp/send-verification-otp", { email, type: "sign-in" });

const domainReads = (commands: string[]) =>
  commands.filter((command) => command === "find:organizationDomains").length;

describe("an instance's memory of a domain's policy", () => {
  it("two code mails of one domain one after the other read the domain once", async () => {
    const { t } = await setUp();
    const commands = await commandsWithinRecentRead(t, async () => {
      expect((await mailCode(t, "ann@acme.test")).status).toBe(200);
      expect((await mailCode(t, "bea@acme.test")).status).toBe(200);
    });
    expect(domainReads(commands)).toBe(1);
  });

  it("requiring SSO through the instance refuses the very next code mail of the domain", async () => {
    const { t, owner } = await setUp();
    expect((await mailCode(t, "ann@acme.test")).status).toBe(200); // the domain read and remembered
    const saved = await owner.browser.post("/organization/update-domain-settings", {
      domain: "acme.test",
      requireSso: true,
    });
    expect(saved.status).toBe(200);
    const refused = await mailCode(t, "ann@acme.test");
    expect([refused.status, refused.body]).toEqual([403, SSO_REQUIRED]);
  });

  it("requiring SSO from another process (a write to the database) applies within the second", async () => {
    const { t } = await setUp();
    expect((await mailCode(t, "ann@acme.test")).status).toBe(200);
    const written = await t.db
      .collection("organizationDomains")
      .updateOne({ verifiedKey: "acme.test" }, { $set: { "settings.requireSso": true } });
    expect(written.modifiedCount).toBe(1);
    await sleep(RECENT_READ_MS + 50);
    const rows = await t.db.collection("verifications").find().toArray();
    const refused = await mailCode(t, "ann@acme.test");
    expect([refused.status, refused.body]).toEqual([403, SSO_REQUIRED]);
    expect(await t.db.collection("verifications").find().toArray()).toEqual(rows); // nothing replaced
  });
});
