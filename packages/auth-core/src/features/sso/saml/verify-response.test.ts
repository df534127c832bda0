import { describe, expect, it } from "vitest";
import {
  buildResponse,
  createTestIdp,
  encodeSamlResponse,
  hasCryptographicallyValidSignature,
  insertIntoNameId,
  moveSignatureToForgedAssertion,
  type ResponseFields,
  withDoctype,
  wrapInsideForgedAssertion,
  wrapWithSiblingAssertion,
} from "#test/saml-idp.ts";
import { type SamlConnection, samlAcsUrl } from "./connection.ts";
import { SAML_CLOCK_SKEW_MS } from "./rules.ts";
import { verifySamlResponse } from "./verify-response.ts";

/*
 * The SAML attack corpus of docs/security.md "SAML", one response each, against the checks of one
 * connection. Each attacked response carries a signature that verifies cryptographically
 * (hasCryptographicallyValidSignature), so a refusal is the defence's doing, not a broken signature.
 */

const idp = createTestIdp();
const acsUrl = samlAcsUrl("http://localhost:3000/api/auth", "corp");
const connection: SamlConnection = {
  providerId: "corp",
  idpEntityId: idp.entityId,
  ssoUrl: idp.ssoUrl,
  certificates: [idp.certificate],
  spEntityId: "https://app.test/saml/sp",
  audience: "https://app.test/saml/sp",
  acsUrl,
  wantAssertionsSigned: true,
  allowIdpInitiated: false,
  clockSkewMs: SAML_CLOCK_SKEW_MS,
  identifierFormat: null,
};
const fields: ResponseFields = {
  acsUrl,
  audience: connection.audience,
  nameId: "ada@corp.com",
  inResponseTo: "_request1",
  attributes: { email: "ada@corp.com", displayName: "Ada Lovelace" },
};

async function verify(xml: string, now = new Date(), onConnection = connection) {
  return verifySamlResponse(onConnection, encodeSamlResponse(xml), now);
}

async function refusalOf(xml: string, now?: Date, onConnection?: SamlConnection) {
  const result = await verify(xml, now, onConnection);
  return result.ok ? `accepted as ${result.value.nameId}` : result.code;
}

describe("a SAML response", () => {
  it("signed by the IdP with its assertion signed is accepted, read from the signed bytes", async () => {
    const result = await verify(buildResponse(idp, fields));
    expect(result.ok && result.value).toMatchObject({
      issuer: idp.entityId,
      nameId: "ada@corp.com",
      inResponseTo: "_request1",
      attributes: { email: "ada@corp.com", displayName: "Ada Lovelace" },
    });
  });

  it("unsigned (neither response nor assertion) is refused", async () => {
    expect(await refusalOf(buildResponse(idp, fields, { sign: "none" }))).toBe("INVALID_SAML_RESPONSE");
  });

  it("signed only on the Response is refused while the connection wants signed assertions", async () => {
    const xml = buildResponse(idp, fields, { sign: "response" });
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(await refusalOf(xml)).toBe("INVALID_SAML_RESPONSE");
    // The same response where the connection accepts a signed Response alone.
    expect(await refusalOf(xml, undefined, { ...connection, wantAssertionsSigned: false })).toBe(
      "accepted as ada@corp.com",
    );
  });

  it("signed by another key than the connection's certificate is refused", async () => {
    const stranger = createTestIdp(idp.entityId);
    expect(await refusalOf(buildResponse(stranger, fields))).toBe("INVALID_SAML_RESPONSE");
  });
});

describe("XML signature wrapping", () => {
  it("a forged assertion beside the signed one is refused", async () => {
    const xml = wrapWithSiblingAssertion(idp, fields, "mallory@corp.com");
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(await refusalOf(xml)).toBe("INVALID_SAML_RESPONSE");
  });

  it("the signed assertion moved under a forged unsigned one is refused", async () => {
    const xml = wrapInsideForgedAssertion(idp, fields, "mallory@corp.com");
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(await refusalOf(xml)).toBe("INVALID_SAML_RESPONSE");
  });

  it("a signature whose Reference names another element's ID is refused", async () => {
    const xml = moveSignatureToForgedAssertion(idp, fields, "mallory@corp.com");
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(await refusalOf(xml)).toBe("INVALID_SAML_RESPONSE");
  });
});

describe("XML constructs", () => {
  it("a comment inside the NameID is refused: the user never becomes victim@corp.com (CVE-2017-11428)", async () => {
    const attacked = { ...fields, nameId: "victim@corp.com.evil.com" };
    const xml = insertIntoNameId(idp, attacked, "victim@corp.com".length);
    expect(xml).toContain("victim@corp.com<!---->.evil.com");
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(await refusalOf(xml)).toBe("SAML_XML_NOT_ALLOWED");
  });

  it("a processing instruction inside the NameID is refused", async () => {
    const attacked = { ...fields, nameId: "victim@corp.com.evil.com" };
    const xml = insertIntoNameId(idp, attacked, "victim@corp.com".length, "<?x y?>");
    expect(await refusalOf(xml)).toBe("SAML_XML_NOT_ALLOWED");
  });

  it("a DOCTYPE with an external entity (XXE) is refused", async () => {
    const xml = withDoctype(idp, fields, '<!ENTITY xxe SYSTEM "file:///etc/passwd">', "&xxe;");
    expect(await refusalOf(xml)).toBe("SAML_XML_NOT_ALLOWED");
  });

  it("a DOCTYPE with nested entities (entity expansion) is refused", async () => {
    const laughs = Array.from({ length: 9 }, (_, level) =>
      level === 0 ? '<!ENTITY l0 "lol">' : `<!ENTITY l${level} "${`&l${level - 1};`.repeat(10)}">`,
    ).join("");
    const xml = withDoctype(idp, fields, laughs, "&l8;");
    expect(await refusalOf(xml)).toBe("SAML_XML_NOT_ALLOWED");
  });

  it("a DOCTYPE alone, even without entities, is refused", async () => {
    const xml = withDoctype(idp, fields, "");
    expect(await refusalOf(xml)).toBe("SAML_XML_NOT_ALLOWED");
  });
});

describe("algorithms", () => {
  it("a response signed with RSA-SHA1 and a SHA-1 digest is refused", async () => {
    const xml = buildResponse(idp, fields, { algorithm: "sha1" });
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(xml).toContain("xmldsig#rsa-sha1");
    expect(await refusalOf(xml)).toBe("SAML_ALGORITHM_NOT_ALLOWED");
  });
});

describe("who the response is for", () => {
  it("another Audience is refused", async () => {
    const xml = buildResponse(idp, { ...fields, audience: "https://other-app.test/sp" });
    expect(await refusalOf(xml)).toBe("SAML_WRONG_RECIPIENT");
  });

  it("another Recipient in the bearer confirmation is refused", async () => {
    const xml = buildResponse(idp, {
      ...fields,
      recipient: samlAcsUrl("http://localhost:3000/api/auth", "other"),
    });
    expect(await refusalOf(xml)).toBe("SAML_WRONG_RECIPIENT");
  });

  it("another Destination on the Response is refused", async () => {
    const xml = buildResponse(idp, { ...fields, destination: "https://other-app.test/acs" });
    expect(await refusalOf(xml)).toBe("SAML_WRONG_RECIPIENT");
  });

  it("another Issuer in the signed assertion, signed with the connection's key, is refused", async () => {
    const xml = buildResponse(idp, { ...fields, assertionIssuer: "https://other-idp.test/metadata" });
    expect(await refusalOf(xml)).toBe("SAML_WRONG_ISSUER");
  });

  it("another Issuer on the (unsigned) Response is refused", async () => {
    const xml = buildResponse(idp, fields).replace(
      `<saml:Issuer>${idp.entityId}</saml:Issuer><samlp:Status>`,
      "<saml:Issuer>https://other-idp.test/metadata</saml:Issuer><samlp:Status>",
    );
    expect(await refusalOf(xml)).toBe("SAML_WRONG_ISSUER");
  });

  it("a response of connection A's IdP is refused by connection B", async () => {
    const idpB = createTestIdp("https://idp-b.test/metadata");
    const connectionB = {
      ...connection,
      providerId: "b",
      idpEntityId: idpB.entityId,
      certificates: [idpB.certificate],
      acsUrl: samlAcsUrl("http://localhost:3000/api/auth", "b"),
    };
    // A's IdP (an attacker's own organization, say) names B's ACS and B's IdP as issuer.
    const aimedAtB = { ...fields, acsUrl: connectionB.acsUrl, issuer: idpB.entityId, nameId: "ceo@b.test" };
    expect(await refusalOf(buildResponse(idp, aimedAtB), undefined, connectionB)).toBe(
      "INVALID_SAML_RESPONSE",
    );
    expect(await refusalOf(buildResponse(idpB, aimedAtB), undefined, connectionB)).toBe(
      "accepted as ceo@b.test",
    );
  });

  it("an InResponseTo on the Response that the signed assertion does not carry is refused", async () => {
    const xml = buildResponse(idp, fields).replace('InResponseTo="_request1"', 'InResponseTo="_request2"');
    expect(hasCryptographicallyValidSignature(idp, xml)).toBe(true);
    expect(await refusalOf(xml)).toBe("INVALID_SAML_RESPONSE");
  });
});

describe(`validity window (clock skew ${SAML_CLOCK_SKEW_MS / 60_000} minutes)`, () => {
  const minutes = (count: number) => new Date(Date.now() + count * 60_000);

  it("expired more than the skew ago is refused", async () => {
    const xml = buildResponse(idp, { ...fields, notBefore: minutes(-10), notOnOrAfter: minutes(-3) });
    expect(await refusalOf(xml)).toBe("SAML_RESPONSE_EXPIRED");
  });

  it("expired within the skew is accepted", async () => {
    const xml = buildResponse(idp, { ...fields, notBefore: minutes(-10), notOnOrAfter: minutes(-1) });
    expect(await refusalOf(xml)).toBe("accepted as ada@corp.com");
  });

  it("not yet valid by more than the skew is refused", async () => {
    const xml = buildResponse(idp, { ...fields, notBefore: minutes(3), notOnOrAfter: minutes(10) });
    expect(await refusalOf(xml)).toBe("SAML_RESPONSE_EXPIRED");
  });

  it("not yet valid within the skew is accepted", async () => {
    const xml = buildResponse(idp, { ...fields, notBefore: minutes(1), notOnOrAfter: minutes(10) });
    expect(await refusalOf(xml)).toBe("accepted as ada@corp.com");
  });

  it("is judged on the app's clock: a response posted 8 minutes after a 5-minute window is refused", async () => {
    expect(await refusalOf(buildResponse(idp, fields), minutes(8))).toBe("SAML_RESPONSE_EXPIRED");
  });
});
