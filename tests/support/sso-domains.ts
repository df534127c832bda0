import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll } from "vitest";
import { startDnsServer, type TestDnsServer } from "./dns-server.ts";
import type { SignedIn } from "./organization.ts";
import type { Overrides, TestAuth } from "./test-auth.ts";

/**
 * Where a test publishes domain proofs (features/sso-domains): a DNS server and an HTTP server on
 * 127.0.0.1. The core always asks for https://<domain>/…; the injected fetch (the
 * sso.domainVerification.fetch option) carries that request to the local server, keeping its path.
 */
export interface DomainTestbed {
  dns: TestDnsServer;
  /** Path → body served with 200 (anything else: 404). */
  files: Map<string, string>;
  /** The URLs the core asked for. */
  fetched: string[];
  options: Overrides;
}

async function startDomainTestbed(): Promise<DomainTestbed & { close(): Promise<void> }> {
  const dns = await startDnsServer();
  const files = new Map<string, string>();
  const fetched: string[] = [];
  const server: Server = createServer((request, response) => {
    const body = files.get(request.url ?? "");
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "text/plain" });
    response.end(body ?? "not here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fetchProof = (url: string, init: RequestInit) => {
    fetched.push(url);
    const target = new URL(url);
    return fetch(`http://127.0.0.1:${port}${target.pathname}`, init);
  };
  return {
    dns,
    files,
    fetched,
    options: { sso: { domainVerification: { resolver: dns.resolver(), fetch: fetchProof } } },
    close: async () => {
      await dns.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One testbed for a test file; `files` and the zone are cleared by the test that uses them. */
export function useDomainTestbed(): DomainTestbed {
  let testbed: (DomainTestbed & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    testbed = await startDomainTestbed();
  });
  afterAll(async () => {
    await testbed?.close();
  });
  return {
    get dns() {
      return testbed!.dns;
    },
    get files() {
      return testbed!.files;
    },
    get fetched() {
      return testbed!.fetched;
    },
    get options() {
      return testbed!.options;
    },
  };
}

interface AddedDomain {
  domain: string;
  status: string;
  proof: { txtName: string; txtValue: string; fileURL: string; fileBody: string } | null;
}

/** Claims `domain` for the caller's active organization; throws unless it answers 200. */
export async function claimDomain(user: SignedIn, domain: string): Promise<AddedDomain> {
  const res = await user.browser.post<AddedDomain>("/organization/add-domain", { domain });
  if (res.status !== 200)
    throw new Error(`add-domain ${domain} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Claims and proves `domain` by a TXT record, then sets its settings. */
export async function verifyDomainByDns(
  testbed: DomainTestbed,
  user: SignedIn,
  domain: string,
  settings: { autoJoin?: boolean; autoJoinRole?: string; requireSso?: boolean } = {},
): Promise<void> {
  const claimed = await claimDomain(user, domain);
  testbed.dns.setTxt(claimed.proof!.txtName, [[claimed.proof!.txtValue]]);
  const verified = await user.browser.post("/organization/verify-domain", { domain });
  if (verified.status !== 200) throw new Error(`verify-domain ${domain} answered ${verified.status}`);
  // Requiring SSO needs a connection turned on to send the domain's people to (SSO_CONNECTION_REQUIRED).
  if (settings.requireSso) await turnOnSsoConnection(user, domain);
  if (Object.keys(settings).length > 0) {
    const set = await user.browser.post("/organization/update-domain-settings", { domain, ...settings });
    if (set.status !== 200) throw new Error(`update-domain-settings answered ${set.status}`);
  }
}

/**
 * Registers an OIDC connection `<domain>-sso` of the caller's active organization (endpoints given,
 * no discovery: no IdP answers here) and turns it on; throws unless both answer 200.
 */
export async function turnOnSsoConnection(user: SignedIn, domain: string): Promise<void> {
  const organization = await user.browser.get<{ id: string }>("/organization/get-full-organization");
  if (organization.status !== 200) throw new Error(`get-full-organization answered ${organization.status}`);
  const issuer = `https://idp.${domain}`;
  const providerId = `${domain.replaceAll(".", "-")}-sso`;
  const registered = await user.browser.post("/sso/register", {
    providerId,
    issuer,
    domain,
    organizationId: organization.body.id,
    oidcConfig: {
      clientId: "test-client",
      clientSecret: "test-client-secret-0123456789",
      skipDiscovery: true,
      authorizationEndpoint: `${issuer}/authorize`,
      tokenEndpoint: `${issuer}/token`,
      jwksEndpoint: `${issuer}/jwks`,
    },
  });
  if (registered.status !== 200)
    throw new Error(`sso/register answered ${registered.status} ${JSON.stringify(registered.body)}`);
  const enabled = await user.browser.post("/sso/update-provider", { providerId, enabled: true });
  if (enabled.status !== 200)
    throw new Error(`sso/update-provider answered ${enabled.status} ${JSON.stringify(enabled.body)}`);
}

/** The organization's domain rows as stored. */
export function storedDomains(t: TestAuth, organizationId?: string) {
  return t.db
    .collection("organizationDomains")
    .find(organizationId ? { organizationId: new ObjectId(organizationId) } : {})
    .toArray();
}

/** Audit events with this action, oldest first. */
export function auditRows(t: TestAuth, action: string) {
  return t.db.collection("auditEvents").find({ action }).sort({ createdAt: 1 }).toArray();
}
