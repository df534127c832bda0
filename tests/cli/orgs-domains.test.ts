import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { startDnsServer, type TestDnsServer } from "#test/dns-server.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { storedDomains } from "#test/sso-domains.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  orgsDomainsAddAction,
  orgsDomainsListAction,
  orgsDomainsRemoveAction,
  orgsDomainsVerifyAction,
} from "../../packages/cli/src/commands/orgs-domains.ts";
import { EXIT } from "../../packages/cli/src/errors.ts";
import { exitOf, testRun } from "./run-context.ts";

/**
 * `tessera orgs domains add|verify|list|remove` against the test database, the proof looked up in a
 * DNS server on 127.0.0.1 that the app's --config module points its resolver at.
 */
const t = useTestAuth();
let dns: TestDnsServer;
let config: string;
beforeAll(async () => {
  dns = await startDnsServer();
  config = join(mkdtempSync(join(tmpdir(), "tessera-domains-")), "tessera.config.mjs");
  writeFileSync(
    config,
    [
      'import { Resolver } from "node:dns/promises";',
      "const resolver = new Resolver({ timeout: 1000, tries: 1 });",
      `resolver.setServers(["127.0.0.1:${dns.port}"]);`,
      // The file proof must not leave the machine either: nothing answers it here.
      'const fetch = async () => new Response("", { status: 404 });',
      "export default { sso: { domainVerification: { resolver, fetch } } };",
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await dns.close();
});

const run = (json = false) => {
  const base = testRun(t.db.databaseName, { json });
  return { ...base, connection: { ...base.connection, config } };
};

describe("tessera orgs domains", () => {
  it("add prints the proof, verify finds the TXT record, list shows it, remove deletes it; all audited", async () => {
    const owner = await signIn(t, "domains-owner");
    const id = await createOrganization(owner, "globex", "Globex");
    const added = await orgsDomainsAddAction(run(), "globex", "Globex.test");
    expect(added).toMatchObject({ organizationId: id, domain: "globex.test", status: "pending" });
    expect(added.proof!.txtName).toBe("_tessera-challenge.globex.test");

    // No record yet: not found (exit 3), the claim still pending.
    expect(await exitOf(orgsDomainsVerifyAction(run(), "globex", "globex.test"))).toEqual([
      EXIT.notFound,
      "DOMAIN_PROOF_NOT_FOUND",
    ]);
    dns.setTxt(added.proof!.txtName, [[added.proof!.txtValue]]);
    const verified = await orgsDomainsVerifyAction(run(), "globex", "globex.test");
    expect(verified).toMatchObject({ status: "verified", method: "dns", proof: null });

    const listed = await orgsDomainsListAction(run(), id);
    expect(listed.map((row) => [row.domain, row.status])).toEqual([["globex.test", "verified"]]);

    expect(await exitOf(orgsDomainsRemoveAction(run(), "globex", "globex.test", {}))).toEqual([
      EXIT.usage,
      "USAGE",
    ]);
    expect(await orgsDomainsRemoveAction(run(), "globex", "globex.test", { yes: true })).toEqual({
      domain: "globex.test",
    });
    expect(await storedDomains(t, id)).toEqual([]);

    const actions = (await auditEvents(t, { actor: "cli:tester" }))
      .map((event) => event.action)
      .filter((action) => action.startsWith("organization.domain"));
    expect(actions).toEqual([
      "organization.domain-claim",
      "organization.domain-verify",
      "organization.domain-remove",
    ]);
  });

  it("refusals exit with their meaning and change nothing", async () => {
    const owner = await signIn(t, "domains-refusals");
    const id = await createOrganization(owner, "initech", "Initech");
    expect(await exitOf(orgsDomainsAddAction(run(), "initech", "gmail.com"))).toEqual([
      EXIT.refused,
      "DOMAIN_NOT_CLAIMABLE",
    ]);
    expect(await exitOf(orgsDomainsAddAction(run(), "initech", "not a domain"))).toEqual([
      EXIT.refused,
      "INVALID_DOMAIN",
    ]);
    expect(await exitOf(orgsDomainsAddAction(run(), "no-such-org", "initech.test"))).toEqual([
      EXIT.notFound,
      "ORGANIZATION_NOT_FOUND",
    ]);
    expect(await exitOf(orgsDomainsVerifyAction(run(), "initech", "initech.test"))).toEqual([
      EXIT.notFound,
      "DOMAIN_NOT_FOUND",
    ]);
    expect(await storedDomains(t, id)).toEqual([]);
  });

  it("--json prints the claim as JSON", async () => {
    const owner = await signIn(t, "domains-json");
    await createOrganization(owner, "umbrella", "Umbrella");
    const captured = run(true);
    const { report } = await import("../../packages/cli/src/kit.ts");
    report(captured, await orgsDomainsAddAction(captured, "umbrella", "umbrella.test"), () => []);
    expect(JSON.parse(captured.stdout())).toMatchObject({ domain: "umbrella.test", status: "pending" });
  });
});
