import { describe, expect, it } from "vitest";
import { createOrganization, errorBody, signIn } from "#test/organization.ts";
import { createTestIdp, registerSamlConnection, TEST_SP_ENTITY_ID } from "#test/saml-idp.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import { checkSamlCertificates } from "./certificate.ts";

/**
 * The IdP's signing certificate is read when a SAML connection is registered or changed
 * (docs/security.md "SAML"): one that cannot be read, or has expired, is refused there with its own
 * message and nothing is stored, instead of every sign-in failing later.
 */

const openAuth = useFreshTestAuth();
const INVALID = errorBody(
  "SAML_CERTIFICATE_INVALID",
  "The identity provider's signing certificate could not be read: paste it in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
);
const EXPIRED = errorBody(
  "SAML_CERTIFICATE_EXPIRED",
  "The identity provider's signing certificate has expired: download the current one from the identity provider and paste it here",
);

/** The PEM with one base64 line left out, as a careless copy makes it. */
const withoutALine = (pem: string) => {
  const lines = pem.trim().split("\n");
  return [...lines.slice(0, 3), ...lines.slice(4)].join("\n");
};
const bodyOf = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");

async function setUp() {
  const t = await openAuth();
  const owner = await signIn(t, "owner");
  const organizationId = await createOrganization(owner, "corp");
  const idp = createTestIdp();
  const register = (providerId: string, samlConfig: Record<string, unknown>) =>
    owner.browser.post("/sso/register", {
      providerId,
      issuer: TEST_SP_ENTITY_ID,
      domain: "corp.com",
      organizationId,
      samlConfig: { entryPoint: idp.ssoUrl, idpMetadata: { entityID: idp.entityId }, ...samlConfig },
    });
  return { t, owner, organizationId, idp, register };
}

describe("registering a SAML connection", () => {
  it("refuses a certificate that cannot be read, at the top level or in idpMetadata, storing nothing", async () => {
    const { t, idp, register } = await setUp();
    for (const samlConfig of [
      { cert: withoutALine(idp.certificate) },
      { cert: "not a certificate" },
      { cert: [idp.certificate, bodyOf(idp.certificate).slice(0, 200)] },
      { idpMetadata: { entityID: idp.entityId, cert: withoutALine(idp.certificate) } },
    ]) {
      const res = await register("corp", samlConfig);
      expect([res.status, res.body]).toEqual([400, INVALID]);
    }
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
  });

  it("takes the PEM or its base64 body alone, as metadata carries it", async () => {
    const { t, idp, register } = await setUp();
    expect((await register("pem", { cert: idp.certificate })).status).toBe(200);
    expect((await register("body", { cert: bodyOf(idp.certificate) })).status).toBe(200);
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(2);
  });

  it("refuses a certificate that has expired, storing nothing", async () => {
    const { t, idp } = await setUp();
    // The test IdP's certificate is valid for a year; a new owner signs in after it ran out.
    t.advance(400 * 24 * 3600);
    const owner = await signIn(t, "later");
    const organizationId = await createOrganization(owner, "later");
    const res = await owner.browser.post("/sso/register", {
      providerId: "late",
      issuer: TEST_SP_ENTITY_ID,
      domain: "later.com",
      organizationId,
      samlConfig: { entryPoint: idp.ssoUrl, cert: idp.certificate, idpMetadata: { entityID: idp.entityId } },
    });
    expect([res.status, res.body]).toEqual([400, EXPIRED]);
    expect(await t.db.collection("ssoProviders").countDocuments()).toBe(0);
  });
});

describe("changing a SAML connection", () => {
  it("refuses a certificate that cannot be read and leaves the connection as it was", async () => {
    const { t, owner, organizationId, idp } = await setUp();
    await registerSamlConnection(owner.browser, organizationId, idp);
    const before = await t.db.collection("ssoProviders").findOne({ providerId: "corp" });
    for (const samlConfig of [
      { cert: withoutALine(idp.certificate) },
      {
        idpMetadata: {
          entityID: idp.entityId,
          cert: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
        },
      },
    ]) {
      const res = await owner.browser.post("/sso/update-provider", { providerId: "corp", samlConfig });
      expect([res.status, res.body]).toEqual([400, INVALID]);
    }
    expect(await t.db.collection("ssoProviders").findOne({ providerId: "corp" })).toEqual(before);
    const rotated = createTestIdp();
    const ok = await owner.browser.post("/sso/update-provider", {
      providerId: "corp",
      samlConfig: { cert: [idp.certificate, rotated.certificate] },
    });
    expect(ok.status).toBe(200);
  });
});

describe("testing a SAML connection", () => {
  it("checks the sign-in URL and the certificates, and answers when the earliest expires", async () => {
    const { t, owner, organizationId, idp } = await setUp();
    await registerSamlConnection(owner.browser, organizationId, idp, {
      samlConfig: { entryPoint: "https://idp.corp.test/sso" },
    });
    const res = await owner.browser.post("/sso/test-provider", { providerId: "corp" });
    const read = checkSamlCertificates(idp.certificate, t.now());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      checks: ["entryPoint", "certificate"],
      certificateExpiresAt: read.ok ? read.value!.toISOString() : null,
    });
  });
});

describe("checkSamlCertificates", () => {
  const idp = createTestIdp();
  const now = new Date();
  it.each([
    ["a PEM is read", idp.certificate, true],
    ["the base64 body, in lines, is read", bodyOf(idp.certificate).replace(/(.{64})/g, "$1\n"), true],
    ["a PEM with Windows line ends is read", idp.certificate.replace(/\n/g, "\r\n"), true],
    ["a PEM missing a line is refused", withoutALine(idp.certificate), false],
    ["a truncated body is refused", bodyOf(idp.certificate).slice(0, 400), false],
    ["a private key is refused", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", false],
    ["blank is refused", "   ", false],
  ])("%s", (_, text, readable) => {
    const result = checkSamlCertificates(text, now);
    expect(result.ok ? "ok" : result.code).toBe(readable ? "ok" : "SAML_CERTIFICATE_INVALID");
  });

  it("answers the earliest expiry; refuses when any has passed", () => {
    const result = checkSamlCertificates([idp.certificate], now);
    expect(result.ok && result.value!.getTime()).toBeGreaterThan(now.getTime() + 300 * 24 * 3600_000);
    const later = new Date(now.getTime() + 400 * 24 * 3600_000);
    expect(checkSamlCertificates(idp.certificate, later)).toEqual({
      ok: false,
      code: "SAML_CERTIFICATE_EXPIRED",
    });
  });
});
