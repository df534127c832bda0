import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { addMember, createOrganization, errorBody, type SignedIn, signIn } from "#test/organization.ts";
import {
  auditRows,
  claimDomain,
  storedDomains,
  useDomainTestbed,
  verifyDomainByDns,
} from "#test/sso-domains.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/** Verified domains: add-domain, verify-domain, list-domains, remove-domain, update-domain-settings. */
const openAuth = useFreshTestAuth();
const testbed = useDomainTestbed();

interface Cast {
  t: TestAuth;
  owner: SignedIn;
  admin: SignedIn;
  member: SignedIn;
  rival: SignedIn;
  org: string;
  rivalOrg: string;
}

async function setUp(overrides: Parameters<typeof openAuth>[0] = {}): Promise<Cast> {
  const sso = { ...testbed.options.sso, ...overrides.sso };
  const t = await openAuth({ ...testbed.options, ...overrides, sso });
  const [owner, admin, member, rival] = await Promise.all(
    ["owner", "admin", "member", "rival"].map((name) => signIn(t, name)),
  );
  const org = await createOrganization(owner!, "acme");
  const rivalOrg = await createOrganization(rival!, "rival");
  await addMember(t, org, admin!, "admin");
  await addMember(t, org, member!, "member");
  for (const user of [admin!, member!])
    await user.browser.post("/organization/set-active", { organizationId: org });
  return { t, owner: owner!, admin: admin!, member: member!, rival: rival!, org, rivalOrg };
}

const publishTxt = (domain: string, value: string) =>
  testbed.dns.setTxt(`_tessera-challenge.${domain}`, [["v=spf1 -all"], [value]]);

describe("claiming a domain", () => {
  it("answers the TXT record and the file to publish, stores a pending claim and audits it", async () => {
    const cast = await setUp();
    const res = await cast.owner.browser.post<Record<string, unknown>>("/organization/add-domain", {
      domain: " Acme-Corp.TEST. ",
    });
    expect(res.status).toBe(200);
    const [row] = await storedDomains(cast.t);
    const token = row!.token as string;
    expect(token).toMatch(/^[0-9a-z]{32}$/);
    expect(res.body).toMatchObject({
      organizationId: cast.org,
      domain: "acme-corp.test",
      status: "pending",
      method: null,
      verifiedAt: null,
      settings: { autoJoin: false, autoJoinRole: "member", requireSso: false },
      proof: {
        txtName: "_tessera-challenge.acme-corp.test",
        txtValue: `tessera-domain-verification=${token}`,
        fileURL: `https://acme-corp.test/.well-known/tessera-challenge/${token}`,
        fileBody: token,
      },
    });
    // A claim lapses after 7 days by default.
    const expiresAt = new Date(res.body.expiresAt as string).getTime();
    expect(expiresAt - new Date(res.body.createdAt as string).getTime()).toBe(7 * 86400 * 1000);
    expect(row).toMatchObject({ status: "pending", verifiedKey: `pending:${row!._id.toHexString()}` });
    const [event] = await auditRows(cast.t, "organization.domain-claim");
    expect(event).toMatchObject({ details: { organizationId: cast.org, domain: "acme-corp.test" } });
    expect(String(event!.actorId)).toBe(cast.owner.userId);
  });

  it("normalizes an internationalized name to punycode", async () => {
    const cast = await setUp();
    const claimed = await claimDomain(cast.owner, "Bücher.Example");
    expect(claimed.domain).toBe("xn--bcher-kva.example");
  });

  it.each([
    ["not a host name", "not a domain", "INVALID_DOMAIN"],
    ["an address", "ada@acme.test", "INVALID_DOMAIN"],
    ["a URL", "https://acme.test/", "INVALID_DOMAIN"],
    ["an IP address", "192.168.1.10", "INVALID_DOMAIN"],
    ["an empty label", "acme..test", "INVALID_DOMAIN"],
    ["a wildcard", "*.acme.test", "INVALID_DOMAIN"],
    ["a free-mail domain", "gmail.com", "DOMAIN_NOT_CLAIMABLE"],
    ["a free-mail country domain", "hotmail.co.uk", "DOMAIN_NOT_CLAIMABLE"],
    ["a free-mail subdomain", "mail.yahoo.com", "DOMAIN_NOT_CLAIMABLE"],
    ["a top-level domain", "com", "DOMAIN_NOT_CLAIMABLE"],
    ["a public suffix", "co.uk", "DOMAIN_NOT_CLAIMABLE"],
  ])("refuses %s with a catalogue message and stores nothing", async (_name, domain, code) => {
    const cast = await setUp();
    const res = await cast.owner.browser.post("/organization/add-domain", { domain });
    const messages: Record<string, string> = {
      INVALID_DOMAIN: "Invalid domain: give a host name such as example.com",
      DOMAIN_NOT_CLAIMABLE: "This domain cannot be claimed: it is a free-mail provider's or a public suffix",
    };
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(code, messages[code]!));
    expect(await storedDomains(cast.t)).toEqual([]);
    expect(await auditRows(cast.t, "organization.domain-claim")).toEqual([]);
  });

  it("refuses a second claim of one domain by one organization, the first unchanged", async () => {
    const cast = await setUp();
    await claimDomain(cast.owner, "acme.test");
    const before = await storedDomains(cast.t);
    const res = await cast.admin.browser.post("/organization/add-domain", { domain: "ACME.test" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      errorBody("DOMAIN_ALREADY_CLAIMED", "This organization has already claimed this domain"),
    );
    expect(await storedDomains(cast.t)).toEqual(before);
  });

  it("refuses a claim past 50 domains per organization", async () => {
    const cast = await setUp();
    const organizationId = new ObjectId(cast.org);
    const now = new Date();
    await cast.t.db.collection("organizationDomains").insertMany(
      Array.from({ length: 50 }, (_, index) => {
        const _id = new ObjectId();
        return {
          _id,
          organizationId,
          domain: `d${index}.test`,
          token: "t",
          status: "pending",
          verifiedKey: `pending:${_id.toHexString()}`,
          method: null,
          settings: { autoJoin: false, autoJoinRole: "member", requireSso: false },
          createdAt: now,
          verifiedAt: null,
          expiresAt: new Date(now.getTime() + 86400_000),
        };
      }),
    );
    const res = await cast.owner.browser.post("/organization/add-domain", { domain: "one-more.test" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      errorBody("DOMAIN_LIMIT_REACHED", "This organization has claimed the most domains it may"),
    );
    expect(await storedDomains(cast.t)).toHaveLength(50);
  });

  it("a plain member cannot claim, verify, change or remove; an outsider is not a member", async () => {
    const cast = await setUp();
    await claimDomain(cast.owner, "acme.test");
    const before = await storedDomains(cast.t);
    const refused = errorBody(
      "ORGANIZATION_UPDATE_NOT_ALLOWED",
      "not allowed to update or delete this organization",
    );
    for (const [path, body] of [
      ["/organization/add-domain", { domain: "other.test" }],
      ["/organization/verify-domain", { domain: "acme.test" }],
      ["/organization/remove-domain", { domain: "acme.test" }],
      ["/organization/update-domain-settings", { domain: "acme.test", requireSso: true }],
    ] as const) {
      const res = await cast.member.browser.post(path, body);
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual(refused);
    }
    const outsider = await cast.rival.browser.post("/organization/add-domain", {
      organizationId: cast.org,
      domain: "other.test",
    });
    expect(outsider.status).toBe(403);
    expect(await storedDomains(cast.t)).toEqual(before);
  });
});

describe("proving a domain", () => {
  it("a TXT record with the token verifies the claim (method dns) and audits it", async () => {
    const cast = await setUp();
    const claimed = await claimDomain(cast.owner, "dns-proof.test");
    publishTxt("dns-proof.test", claimed.proof!.txtValue);
    const res = await cast.admin.browser.post("/organization/verify-domain", { domain: "dns-proof.test" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "verified", method: "dns", expiresAt: null, proof: null });
    const [row] = await storedDomains(cast.t);
    expect(row).toMatchObject({ status: "verified", verifiedKey: "dns-proof.test", method: "dns" });
    const [event] = await auditRows(cast.t, "organization.domain-verify");
    expect(event).toMatchObject({ details: { domain: "dns-proof.test", method: "dns" } });
  });

  it("the file at https://<domain>/.well-known/tessera-challenge/<token> verifies it (method http)", async () => {
    const cast = await setUp();
    const claimed = await claimDomain(cast.owner, "file-proof.test");
    const path = new URL(claimed.proof!.fileURL).pathname;
    testbed.files.set(path, `${claimed.proof!.fileBody}\n`);
    const res = await cast.owner.browser.post("/organization/verify-domain", { domain: "file-proof.test" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "verified", method: "http" });
    expect(testbed.fetched).toContain(claimed.proof!.fileURL);
  });

  it("without a published proof (or with another token) it stays pending: DOMAIN_PROOF_NOT_FOUND", async () => {
    const cast = await setUp();
    await claimDomain(cast.owner, "unproven.test");
    publishTxt("unproven.test", "tessera-domain-verification=someone-elses-token");
    testbed.files.set("/.well-known/tessera-challenge/wrong", "wrong");
    const before = await storedDomains(cast.t);
    const res = await cast.owner.browser.post("/organization/verify-domain", { domain: "unproven.test" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(
        "DOMAIN_PROOF_NOT_FOUND",
        "No proof of the domain was found: publish the TXT record or the file, then verify again",
      ),
    );
    expect(await storedDomains(cast.t)).toEqual(before);
    expect(await auditRows(cast.t, "organization.domain-verify")).toEqual([]);
  });

  it("an unknown domain is DOMAIN_NOT_FOUND", async () => {
    const cast = await setUp();
    const res = await cast.owner.browser.post("/organization/verify-domain", {
      domain: "never-claimed.test",
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody("DOMAIN_NOT_FOUND", "Domain not found"));
  });

  it("a lapsed claim cannot be verified; adding it again gives a new token", async () => {
    const cast = await setUp({
      sso: { domainVerification: { ...testbed.options.sso?.domainVerification, claimTtlSeconds: 3600 } },
    });
    const claimed = await claimDomain(cast.owner, "late.test");
    publishTxt("late.test", claimed.proof!.txtValue);
    cast.t.advance(3601);
    const res = await cast.owner.browser.post("/organization/verify-domain", { domain: "late.test" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(
        "DOMAIN_CLAIM_EXPIRED",
        "The claim on this domain has expired: add the domain again for a new token",
      ),
    );
    expect((await storedDomains(cast.t))[0]).toMatchObject({ status: "pending" });
    const again = await claimDomain(cast.owner, "late.test");
    expect(again.proof!.txtValue).not.toBe(claimed.proof!.txtValue);
    publishTxt("late.test", again.proof!.txtValue);
    const verified = await cast.owner.browser.post("/organization/verify-domain", { domain: "late.test" });
    expect(verified.status).toBe(200);
  });

  it("several organizations may claim a domain; the first to prove it holds it, the other is refused", async () => {
    const cast = await setUp();
    const ours = await claimDomain(cast.owner, "contested.test");
    await cast.rival.browser.post("/organization/set-active", { organizationId: cast.rivalOrg });
    const theirs = await claimDomain(cast.rival, "contested.test");
    // Both tokens are published (a shared zone); the first verify wins.
    testbed.dns.setTxt("_tessera-challenge.contested.test", [
      [ours.proof!.txtValue],
      [theirs.proof!.txtValue],
    ]);
    expect(
      (await cast.owner.browser.post("/organization/verify-domain", { domain: "contested.test" })).status,
    ).toBe(200);
    const second = await cast.rival.browser.post("/organization/verify-domain", { domain: "contested.test" });
    expect(second.status).toBe(409);
    expect(second.body).toEqual(
      errorBody(
        "DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION",
        "Another organization has already verified this domain",
      ),
    );
    const rows = await storedDomains(cast.t, cast.rivalOrg);
    expect(rows[0]).toMatchObject({ status: "pending" });
    // A new claim of a domain another organization holds is refused outright.
    await cast.rival.browser.post("/organization/remove-domain", { domain: "contested.test" });
    const claim = await cast.rival.browser.post("/organization/add-domain", { domain: "contested.test" });
    expect(claim.status).toBe(409);
    expect(await storedDomains(cast.t, cast.rivalOrg)).toEqual([]);
  });

  it("an unproven claim by another organization never blocks the real owner", async () => {
    const cast = await setUp();
    await cast.rival.browser.post("/organization/set-active", { organizationId: cast.rivalOrg });
    await claimDomain(cast.rival, "squatted.test");
    const ours = await claimDomain(cast.owner, "squatted.test");
    publishTxt("squatted.test", ours.proof!.txtValue);
    expect(
      (await cast.owner.browser.post("/organization/verify-domain", { domain: "squatted.test" })).status,
    ).toBe(200);
  });

  it("with sso.trustDeclaredDomains a claim is verified at once (method declared), no lookup made", async () => {
    const queriesBefore = testbed.dns.queries();
    const cast = await setUp({ sso: { trustDeclaredDomains: true } });
    const claimed = await claimDomain(cast.owner, "declared.test");
    expect(claimed).toMatchObject({ status: "verified", method: "declared", proof: null });
    expect(testbed.dns.queries()).toBe(queriesBefore);
  });
});

describe("listing, settings and removal", () => {
  it("a plain member reads the verified domains and their settings, never a pending claim or its proof; an outsider reads nothing", async () => {
    const cast = await setUp();
    await verifyDomainByDns(testbed, cast.owner, "proven.test", { requireSso: true });
    await claimDomain(cast.owner, "pending.test");
    const list = await cast.member.browser.get<Record<string, unknown>[]>("/organization/list-domains");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        domain: "proven.test",
        status: "verified",
        settings: { autoJoin: false, autoJoinRole: "member", requireSso: true },
        proof: null,
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain("pending.test");
    const managers = await cast.admin.browser.get<{ domain: string }[]>("/organization/list-domains");
    expect(managers.body.map((row) => row.domain)).toEqual(["proven.test", "pending.test"]);
    const outsider = await cast.rival.browser.get(`/organization/list-domains?organizationId=${cast.org}`);
    expect(outsider.status).toBe(403);
  });

  it("lists the organization's domains; settings change with an audit; remove deletes the row", async () => {
    const cast = await setUp();
    await claimDomain(cast.owner, "one.test");
    await claimDomain(cast.owner, "two.test");
    const list = await cast.admin.browser.get<{ domain: string }[]>("/organization/list-domains");
    expect(list.status).toBe(200);
    expect(list.body.map((row) => row.domain)).toEqual(["one.test", "two.test"]);
    const set = await cast.owner.browser.post("/organization/update-domain-settings", {
      domain: "one.test",
      autoJoin: true,
      autoJoinRole: "admin",
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      settings: { autoJoin: true, autoJoinRole: "admin", requireSso: false },
    });
    const [event] = await auditRows(cast.t, "organization.domain-settings");
    expect(event).toMatchObject({
      details: {
        before: { autoJoin: false, autoJoinRole: "member", requireSso: false },
        after: { autoJoin: true, autoJoinRole: "admin", requireSso: false },
      },
    });
    const removed = await cast.owner.browser.post("/organization/remove-domain", { domain: "one.test" });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ domain: "one.test" });
    expect((await storedDomains(cast.t)).map((row) => row.domain)).toEqual(["two.test"]);
    expect(await auditRows(cast.t, "organization.domain-remove")).toHaveLength(1);
  });

  it.each([
    ["the owner role", "owner"],
    ["an unknown role", "superuser"],
  ])("refuses %s as the auto-join role, settings unchanged", async (_name, role) => {
    const cast = await setUp();
    await claimDomain(cast.owner, "roles.test");
    const before = await storedDomains(cast.t);
    const res = await cast.owner.browser.post("/organization/update-domain-settings", {
      domain: "roles.test",
      autoJoin: true,
      autoJoinRole: role,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(
        "AUTO_JOIN_ROLE_NOT_ALLOWED",
        "autoJoinRole must be a role of the organization other than the owner's",
      ),
    );
    expect(await storedDomains(cast.t)).toEqual(before);
  });
});
