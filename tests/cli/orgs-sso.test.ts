import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { useOidcIdp } from "#test/oidc-idp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { createTestIdp } from "#test/saml-idp.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  orgsSsoAddAction,
  orgsSsoListAction,
  orgsSsoRemoveAction,
  orgsSsoSetEnabledAction,
  orgsSsoTestAction,
} from "../../packages/cli/src/commands/orgs-sso.ts";
import { EXIT, toKnownError } from "../../packages/cli/src/errors.ts";
import type { SsoAddOptions } from "../../packages/cli/src/sso-input.ts";
import { testRun } from "./run-context.ts";

/**
 * `tessera orgs sso list|add|test|remove` against the test database, an OIDC connection to a real
 * OIDC provider (oidc-provider on 127.0.0.1) and a SAML connection from an IdP's metadata file. The
 * app's --config module lets the outbound guard reach 127.0.0.1.
 */
const t = useTestAuth();
const CLIENT = { clientId: "tessera-cli", clientSecret: "cli-client-secret-0123456789" };
const idp = useOidcIdp([{ ...CLIENT, redirectUri: "http://localhost:3000/api/auth/sso/callback/okta" }]);
let dir: string;
let config: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tessera-sso-"));
  config = join(dir, "tessera.config.mjs");
  writeFileSync(config, "export default { outbound: { allowPrivateAddresses: true } };\n");
});

const run = (options: { json?: boolean; env?: NodeJS.ProcessEnv } = {}) => {
  const base = testRun(t.db.databaseName, options);
  return { ...base, connection: { ...base.connection, config } };
};

async function exitOf(promise: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await promise;
  } catch (error) {
    const known = toKnownError(error);
    if (!known) throw error;
    return [known.exitCode, known.code, known.message];
  }
  return [EXIT.ok, "OK", ""];
}

function oidc(overrides: Partial<SsoAddOptions> = {}): SsoAddOptions {
  return {
    type: "oidc",
    providerId: "okta",
    issuer: idp().issuer,
    domain: "globex.test",
    clientId: CLIENT.clientId,
    clientSecretEnv: "IDP_SECRET",
    ...overrides,
  };
}

function metadataXml(entityId: string, ssoUrl: string, certificatePem: string): string {
  const body = certificatePem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  return [
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">`,
    '  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
    '    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">',
    `      <ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data>`,
    "    </ds:KeyInfo></md:KeyDescriptor>",
    `    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>`,
    `    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>`,
    "  </md:IDPSSODescriptor>",
    "</md:EntityDescriptor>",
  ].join("\n");
}

describe("tessera orgs sso", () => {
  it("add registers an OIDC connection (secret from the environment), test checks it, list shows it, remove deletes it; all audited", async () => {
    const owner = await signIn(t, "sso-owner");
    const id = await createOrganization(owner, "globex", "Globex");
    const env = { IDP_SECRET: CLIENT.clientSecret };
    const added = await orgsSsoAddAction(run({ env }), "globex", oidc());
    expect(added).toMatchObject({
      providerId: "okta",
      type: "oidc",
      organizationId: id,
      redirectURI: "http://localhost:3000/api/auth/sso/callback/okta",
      oidcConfig: { jwksEndpoint: `${idp().issuer}/jwks` },
    });
    const stored = await t.db.collection("ssoProviders").findOne({ providerId: "okta" });
    expect(stored?.userId).toBeNull();
    expect(JSON.stringify(stored)).not.toContain(CLIENT.clientSecret);

    expect(await orgsSsoTestAction(run(), "globex", "okta")).toEqual({
      success: true,
      checks: ["discovery", "issuer", "jwks"],
    });
    const listed = await orgsSsoListAction(run(), id);
    expect(listed.map((row) => [row.providerId, row.type, row.issuer, row.enabled])).toEqual([
      ["okta", "oidc", idp().issuer, true],
    ]);

    expect(await exitOf(orgsSsoRemoveAction(run(), "globex", "okta", {}))).toEqual([
      EXIT.usage,
      "USAGE",
      "Remove SSO connection okta from Globex (globex), so its users can no longer sign in through it: refused without --yes (no terminal to ask on)",
    ]);
    expect(await orgsSsoRemoveAction(run(), "globex", "okta", { yes: true })).toEqual({
      providerId: "okta",
      accountsRemoved: 0,
    });
    expect(await t.db.collection("ssoProviders").countDocuments({ providerId: "okta" })).toBe(0);
    const actions = (await auditEvents(t, { actor: "cli:tester" }))
      .map((event) => event.action)
      .filter((action) => action.startsWith("organization.sso"));
    expect(actions).toEqual([
      "organization.sso-register",
      "organization.sso-test",
      "organization.sso-delete",
    ]);
  });

  it("disable stops a connection after asking, enable turns it on again; both audited, the connection kept", async () => {
    const owner = await signIn(t, "sso-toggler");
    await createOrganization(owner, "vandelay", "Vandelay");
    await orgsSsoAddAction(
      run({ env: { IDP_SECRET: CLIENT.clientSecret } }),
      "vandelay",
      oidc({ providerId: "vandelay-okta", domain: "vandelay.test" }),
    );
    const enabledOf = async () =>
      (await t.db.collection("ssoProviders").findOne({ providerId: "vandelay-okta" }))?.enabled;

    expect(await exitOf(orgsSsoSetEnabledAction(run(), "vandelay", "vandelay-okta", false))).toEqual([
      EXIT.usage,
      "USAGE",
      "Disable SSO connection vandelay-okta of Vandelay (vandelay), so nobody can sign in through it until it is enabled again: refused without --yes (no terminal to ask on)",
    ]);
    expect(await enabledOf()).toBe(true);
    const disabled = await orgsSsoSetEnabledAction(run(), "vandelay", "vandelay-okta", false, { yes: true });
    expect(disabled).toMatchObject({ providerId: "vandelay-okta", enabled: false });
    expect(await enabledOf()).toBe(false);
    // Disabled, the sign-in by provider id is refused.
    const start = await owner.browser.post<{ code: string }>("/sign-in/sso", { providerId: "vandelay-okta" });
    expect({ status: start.status, code: start.body.code }).toEqual({
      status: 403,
      code: "SSO_PROVIDER_DISABLED",
    });
    const enabled = await orgsSsoSetEnabledAction(run(), "vandelay", "vandelay-okta", true);
    expect(enabled).toMatchObject({ providerId: "vandelay-okta", enabled: true });
    expect(await enabledOf()).toBe(true);
    expect(await exitOf(orgsSsoSetEnabledAction(run(), "vandelay", "nobody-here", true))).toEqual([
      EXIT.notFound,
      "SSO_PROVIDER_NOT_FOUND",
      expect.any(String),
    ]);
    const updates = (await auditEvents(t, { actor: "cli:tester" })).filter(
      (event) => event.action === "organization.sso-update",
    );
    expect(updates).toHaveLength(2);
  });

  it("add reads a SAML IdP's metadata file and prints the SP metadata URL to give the IdP", async () => {
    const owner = await signIn(t, "saml-owner");
    await createOrganization(owner, "initech", "Initech");
    const samlIdp = createTestIdp("https://idp.initech.test/metadata");
    const file = join(dir, "idp-metadata.xml");
    writeFileSync(file, metadataXml(samlIdp.entityId, "https://idp.initech.test/sso", samlIdp.certificate));
    const captured = run();
    const options: SsoAddOptions = {
      type: "saml",
      providerId: "initech-saml",
      issuer: "https://app.initech.test/sp",
      domain: "initech.test",
      metadataFile: file,
    };
    const added = await orgsSsoAddAction(captured, "initech", options);
    expect(added.samlConfig).toMatchObject({ entryPoint: "https://idp.initech.test/sso" });
    expect(added.spMetadataUrl).toBe(
      "http://localhost:3000/api/auth/sso/saml2/sp/metadata?providerId=initech-saml",
    );
    // The test reports when the IdP's certificate runs out (the test IdP's: a year from now).
    const tested = await orgsSsoTestAction(run(), "initech", "initech-saml");
    expect(tested).toMatchObject({ success: true });
    const expires = Date.parse(tested.certificateExpiresAt ?? "");
    expect(expires - Date.now()).toBeGreaterThan(364 * 86_400_000);
    const stored = await t.db.collection("ssoProviders").findOne({ providerId: "initech-saml" });
    expect(stored?.samlConfig.idpMetadata.entityID).toBe("https://idp.initech.test/metadata");
    expect(stored?.samlConfig.cert.replace(/\s+/g, "")).toBe(samlIdp.certificate.replace(/\s+/g, ""));
    const broken = join(dir, "broken.xml");
    writeFileSync(broken, "<EntityDescriptor/>");
    const [code, , message] = await exitOf(
      orgsSsoAddAction(run(), "initech", { ...options, providerId: "x", metadataFile: broken }),
    );
    expect([code, message]).toEqual([
      EXIT.usage,
      `--metadata-file: ${broken} has no EntityDescriptor entityID, SingleSignOnService Location or X509Certificate`,
    ]);
    // A certificate cut short in the metadata is refused when the connection is added, not at sign-in.
    const cut = join(dir, "cut.xml");
    const pem = samlIdp.certificate;
    writeFileSync(
      cut,
      metadataXml(samlIdp.entityId, "https://idp.initech.test/sso", pem.slice(0, pem.length / 2)),
    );
    expect(
      await exitOf(orgsSsoAddAction(run(), "initech", { ...options, providerId: "cut", metadataFile: cut })),
    ).toEqual([
      EXIT.refused,
      "SAML_CERTIFICATE_INVALID",
      "The identity provider's signing certificate could not be read: paste it in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
    ]);
    expect(await t.db.collection("ssoProviders").countDocuments({ providerId: "cut" })).toBe(0);
  });

  it("refusals exit with their meaning and change nothing", async () => {
    const owner = await signIn(t, "sso-refusals");
    await createOrganization(owner, "umbrella", "Umbrella");
    const env = { IDP_SECRET: CLIENT.clientSecret };
    expect(await exitOf(orgsSsoAddAction(run({ env }), "no-such-org", oidc()))).toEqual([
      EXIT.notFound,
      "ORGANIZATION_NOT_FOUND",
      'no organization with the id or slug "no-such-org" (`tessera orgs list` lists them)',
    ]);
    expect((await exitOf(orgsSsoAddAction(run(), "umbrella", oidc())))[2]).toBe(
      "--client-secret-env: IDP_SECRET is not set",
    );
    expect(
      (await exitOf(orgsSsoAddAction(run({ env }), "umbrella", oidc({ metadataFile: "x.xml" }))))[2],
    ).toBe("--metadata-file: not for --type oidc");
    expect(
      await exitOf(orgsSsoAddAction(run({ env }), "umbrella", oidc({ providerId: "no spaces" }))),
    ).toEqual([
      EXIT.usage,
      "VALIDATION_ERROR",
      "Invalid request: providerId: letters, digits, '.', '_' and '-', at most 100",
    ]);
    expect(await exitOf(orgsSsoAddAction(run({ env }), "umbrella", oidc({ providerId: "google" })))).toEqual([
      EXIT.refused,
      "SSO_PROVIDER_ID_RESERVED",
      "This providerId is reserved and cannot be used for an SSO provider",
    ]);
    expect(await exitOf(orgsSsoTestAction(run(), "umbrella", "okta"))).toEqual([
      EXIT.notFound,
      "SSO_PROVIDER_NOT_FOUND",
      "SSO provider not found",
    ]);
    expect(
      await t.db
        .collection("ssoProviders")
        .countDocuments({ domain: "globex.test", providerId: { $ne: "okta" } }),
    ).toBe(0);
  });

  it("a connection of another organization is not found through this one", async () => {
    const a = await signIn(t, "sso-a");
    await createOrganization(a, "hooli", "Hooli");
    const b = await signIn(t, "sso-b");
    await createOrganization(b, "pied-piper", "Pied Piper");
    await orgsSsoAddAction(
      run({ env: { S: CLIENT.clientSecret } }),
      "hooli",
      oidc({ providerId: "hooli", clientSecretEnv: "S" }),
    );
    expect((await exitOf(orgsSsoRemoveAction(run(), "pied-piper", "hooli", { yes: true })))[1]).toBe(
      "SSO_PROVIDER_NOT_FOUND",
    );
    expect(await orgsSsoListAction(run(), "pied-piper")).toEqual([]);
    expect(await t.db.collection("ssoProviders").countDocuments({ providerId: "hooli" })).toBe(1);
  });
});
