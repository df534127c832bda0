/**
 * A SAML identity provider inside the test: an RSA key, a self-signed X.509 certificate (DER written
 * here: node:crypto parses certificates but does not make them) and responses signed with
 * xml-crypto — the correct form and the attacked forms of docs/security.md "SAML".
 */
import { createPrivateKey, createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { SignedXml } from "xml-crypto";
import type { TestBrowser } from "./browser.ts";
import { TEST_ORIGIN } from "./test-auth.ts";

const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const RSA_SHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
const SHA1 = "http://www.w3.org/2000/09/xmldsig#sha1";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";

export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  /** The signing certificate, PEM: what a connection's samlConfig.cert holds. */
  certificate: string;
  privateKey: KeyObject;
}

/** A fresh IdP with its own key and certificate (valid from an hour ago for a year). */
export function createTestIdp(entityId = "https://idp.corp.test/metadata"): TestIdp {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const certificate = toPem(createSelfSignedCertificate(privateKey, spki, "Test IdP"), "CERTIFICATE");
  return { entityId, ssoUrl: "https://idp.corp.test/sso", certificate, privateKey };
}

export interface ResponseFields {
  /** The SP's ACS URL: the Response's Destination and the SubjectConfirmationData's Recipient. */
  acsUrl: string;
  /** The SP's entity id: the Audience. */
  audience: string;
  nameId: string;
  /** The AuthnRequest's ID; null for an IdP-initiated response. */
  inResponseTo: string | null;
  /** Overrides of single fields, for the attacks that change one of them. */
  destination?: string;
  recipient?: string;
  issuer?: string;
  /** The assertion's Issuer only (the Response keeps `issuer`). */
  assertionIssuer?: string;
  assertionId?: string;
  /** The validity window; default now − 1 minute to now + 5 minutes. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  attributes?: Record<string, string | string[]>;
}

/** What each part of a response looks like before signing. */
interface ResponseParts {
  responseId: string;
  assertionId: string;
  assertion: string;
  /** The Response with `{{ASSERTION}}` where the assertion goes. */
  envelope: string;
}

function buildResponseParts(idp: TestIdp, fields: ResponseFields): ResponseParts {
  const now = new Date();
  const notBefore = fields.notBefore ?? new Date(now.getTime() - 60_000);
  const notOnOrAfter = fields.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const responseId = generateId();
  const assertionId = fields.assertionId ?? generateId();
  const issuer = fields.issuer ?? idp.entityId;
  const inResponseTo = fields.inResponseTo === null ? "" : ` InResponseTo="${fields.inResponseTo}"`;
  const attributes = Object.entries(fields.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${name}">${[value]
          .flat()
          .map((item) => `<saml:AttributeValue>${item}</saml:AttributeValue>`)
          .join("")}</saml:Attribute>`,
    )
    .join("");
  const assertion =
    `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${assertionId}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${fields.assertionIssuer ?? issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${fields.nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter.toISOString()}" Recipient="${fields.recipient ?? fields.acsUrl}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore.toISOString()}" NotOnOrAfter="${notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${fields.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${generateId()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "") +
    `</saml:Assertion>`;
  const envelope =
    `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${responseId}" Version="2.0" ` +
    `IssueInstant="${now.toISOString()}" Destination="${fields.destination ?? fields.acsUrl}"${inResponseTo}>` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `{{ASSERTION}}</samlp:Response>`;
  return { responseId, assertionId, assertion, envelope };
}

export type Algorithm = "sha256" | "sha1";

/**
 * Signs the element whose `ID` is `id` in `xml` (enveloped, exclusive c14n), the signature placed
 * after the element's Issuer as SAML's schema orders it.
 */
function signElement(idp: TestIdp, xml: string, id: string, algorithm: Algorithm = "sha256"): string {
  const signer = new SignedXml({
    privateKey: idp.privateKey.export({ type: "pkcs8", format: "pem" }),
    signatureAlgorithm: algorithm === "sha1" ? RSA_SHA1 : RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  const element = `//*[@ID='${id}']`;
  signer.addReference({
    xpath: element,
    digestAlgorithm: algorithm === "sha1" ? SHA1 : SHA256,
    transforms: [ENVELOPED, EXC_C14N],
  });
  signer.computeSignature(xml, {
    location: { reference: `${element}/*[local-name(.)='Issuer']`, action: "after" },
    prefix: "ds",
  });
  return signer.getSignedXml();
}

/** True when some signature in `xml` verifies with the IdP's certificate, whatever it covers. */
export function hasCryptographicallyValidSignature(idp: TestIdp, xml: string): boolean {
  const verifier = new SignedXml({ publicCert: idp.certificate });
  const signature = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml)?.[0];
  if (!signature) return false;
  verifier.loadSignature(signature);
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
}

export type SigningMode = "assertion" | "response" | "both" | "none";

/** A whole response, signed as asked (the usual IdP signs the assertion). */
export function buildResponse(
  idp: TestIdp,
  fields: ResponseFields,
  options: { sign?: SigningMode; algorithm?: Algorithm } = {},
): string {
  const parts = buildResponseParts(idp, fields);
  const sign = options.sign ?? "assertion";
  const assertion =
    sign === "assertion" || sign === "both"
      ? signElement(idp, parts.assertion, parts.assertionId, options.algorithm)
      : parts.assertion;
  const response = parts.envelope.replace("{{ASSERTION}}", assertion);
  return sign === "response" || sign === "both"
    ? signElement(idp, response, parts.responseId, options.algorithm)
    : response;
}

/** The form field an IdP's page posts to the ACS. */
export function encodeSamlResponse(xml: string): string {
  return Buffer.from(xml, "utf8").toString("base64");
}

/** The AuthnRequest an HTTP-Redirect URL carries (SAML bindings §3.4.4.1: deflated, base64). */
export function decodeAuthnRequest(url: string): string {
  const request = new URL(url).searchParams.get("SAMLRequest");
  if (!request) throw new Error(`no SAMLRequest in ${url}`);
  return inflateRawSync(Buffer.from(request, "base64")).toString("utf8");
}

/** An attribute of the first element named `name` (local name) in `xml`. */
export function readAttribute(xml: string, name: string, attribute: string): string | null {
  const element = new RegExp(`<(?:\\w+:)?${name}\\b[^>]*>`).exec(xml)?.[0];
  return element ? (new RegExp(`\\s${attribute}="([^"]*)"`).exec(element)?.[1] ?? null) : null;
}

function generateId(): string {
  // An xs:ID must not start with a digit.
  return `_${randomBytes(16).toString("hex")}`;
}

// --- A minimal X.509 v3 certificate (RFC 5280 §4.1), DER ----------------------------------------

function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const SHA256_WITH_RSA = sequence(
  Buffer.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b]),
  Buffer.from([0x05, 0x00]),
);

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, "").slice(2, 14);
  return der(0x17, Buffer.from(`${text}Z`, "ascii"));
}

function commonName(name: string): Buffer {
  const cn = sequence(Buffer.from([0x06, 0x03, 0x55, 0x04, 0x03]), der(0x0c, Buffer.from(name, "utf8")));
  return sequence(der(0x31, cn));
}

function createSelfSignedCertificate(privateKey: KeyObject, spki: Buffer, name: string): Buffer {
  const now = Date.now();
  const serial = randomBytes(8);
  // A positive INTEGER, minimally encoded: a leading 0x00 before a byte below 0x80 is padding that
  // OpenSSL refuses, which made one test IdP in 256 unreadable.
  serial[0] = 0x40 | ((serial[0] ?? 0) & 0x3f);
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([0x02]))),
    der(0x02, serial),
    SHA256_WITH_RSA,
    commonName(name),
    sequence(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 365 * 86_400_000))),
    commonName(name),
    spki,
  );
  const signature = createSign("RSA-SHA256")
    .update(tbs)
    .sign(createPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" })));
  return sequence(tbs, SHA256_WITH_RSA, der(0x03, Buffer.concat([Buffer.from([0x00]), signature])));
}

function toPem(body: Buffer, label: string): string {
  const lines = body.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

// --- Attacked forms (docs/security.md "SAML") -----------------------------------------------------

/** An attacker's assertion: the same fields, another subject, no signature. */
function forgedAssertion(idp: TestIdp, fields: ResponseFields, nameId: string): { id: string; xml: string } {
  const forged = buildResponseParts(idp, { ...fields, nameId });
  return { id: forged.assertionId, xml: forged.assertion };
}

/** XSW: the IdP's signed assertion stays; a forged unsigned one is put beside it, first. */
export function wrapWithSiblingAssertion(idp: TestIdp, fields: ResponseFields, nameId: string): string {
  const parts = buildResponseParts(idp, fields);
  const signed = signElement(idp, parts.assertion, parts.assertionId);
  const forged = forgedAssertion(idp, fields, nameId);
  return parts.envelope.replace("{{ASSERTION}}", forged.xml + signed);
}

/** XSW: the signed assertion moved inside a forged unsigned one (under its Subject), which is the Response's child. */
export function wrapInsideForgedAssertion(idp: TestIdp, fields: ResponseFields, nameId: string): string {
  const parts = buildResponseParts(idp, fields);
  const signed = signElement(idp, parts.assertion, parts.assertionId);
  const forged = forgedAssertion(idp, fields, nameId);
  const wrapped = forged.xml.replace("</saml:Subject>", `${signed}</saml:Subject>`);
  return parts.envelope.replace("{{ASSERTION}}", wrapped);
}

/**
 * XSW: the signature moved into a forged assertion, its Reference still naming the IdP's assertion
 * (by ID), which is kept, unsigned, inside the forged one's Advice.
 */
export function moveSignatureToForgedAssertion(idp: TestIdp, fields: ResponseFields, nameId: string): string {
  const parts = buildResponseParts(idp, fields);
  const signed = signElement(idp, parts.assertion, parts.assertionId);
  const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)?.[0] ?? "";
  const original = signed.replace(signature, "");
  const forged = forgedAssertion(idp, fields, nameId);
  const withSignature = forged.xml
    .replace(/(<saml:Issuer>[^<]*<\/saml:Issuer>)/, `$1${signature}`)
    .replace("</saml:Conditions>", `</saml:Conditions><saml:Advice>${original}</saml:Advice>`);
  return parts.envelope.replace("{{ASSERTION}}", withSignature);
}

/**
 * CVE-2017-11428: the IdP signs `signedNameId`; a comment (or processing instruction) is put inside
 * it after its first `visibleLength` characters. Canonicalisation drops comments, so the signature
 * still holds for a comment.
 */
export function insertIntoNameId(
  idp: TestIdp,
  fields: ResponseFields,
  visibleLength: number,
  insertion = "<!---->",
): string {
  const signed = buildResponse(idp, fields);
  return signed.replace(
    `>${fields.nameId}</saml:NameID>`,
    `>${fields.nameId.slice(0, visibleLength)}${insertion}${fields.nameId.slice(visibleLength)}</saml:NameID>`,
  );
}

/** A correctly signed response with a DOCTYPE before it (`declarations`: the internal subset). */
export function withDoctype(
  idp: TestIdp,
  fields: ResponseFields,
  declarations: string,
  nameId?: string,
): string {
  const signed = buildResponse(idp, fields);
  const body = nameId === undefined ? signed : signed.replace(`>${fields.nameId}<`, `>${nameId}<`);
  return `<?xml version="1.0"?><!DOCTYPE samlp:Response [${declarations}]>${body}`;
}

// --- The SP side: a connection of an organization, and the browser's posts -------------------------

export const TEST_SP_ENTITY_ID = "https://app.test/saml/sp";

export interface SamlConnectionOptions {
  providerId?: string;
  domain?: string;
  defaultRole?: string;
  enabled?: boolean;
  /** samlConfig fields beside the IdP's (e.g. allowIdpInitiated). */
  samlConfig?: Record<string, unknown>;
  mapping?: Record<string, unknown>;
}

/** Registers a SAML connection of `organizationId` for `idp` through /sso/register, as its owner. */
export async function registerSamlConnection(
  owner: TestBrowser,
  organizationId: string,
  idp: TestIdp,
  options: SamlConnectionOptions = {},
): Promise<string> {
  const providerId = options.providerId ?? "corp";
  const res = await owner.post("/sso/register", {
    providerId,
    issuer: TEST_SP_ENTITY_ID,
    domain: options.domain ?? "corp.com",
    organizationId,
    ...(options.defaultRole ? { defaultRole: options.defaultRole } : {}),
    ...(options.enabled === undefined ? {} : { enabled: options.enabled }),
    samlConfig: {
      entryPoint: idp.ssoUrl,
      cert: idp.certificate,
      idpMetadata: { entityID: idp.entityId },
      ...(options.mapping ? { mapping: options.mapping } : {}),
      ...options.samlConfig,
    },
  });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return providerId;
}

/** What the IdP's page makes the browser post to the ACS (a cross-site form POST from the IdP's origin). */
export function postToAcs(browser: TestBrowser, providerId: string, xml: string, relayState?: string) {
  const form = new URLSearchParams({ SAMLResponse: encodeSamlResponse(xml) });
  if (relayState !== undefined) form.set("RelayState", relayState);
  return browser.request("POST", `/sso/saml2/sp/acs/${providerId}`, {
    rawBody: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://idp.corp.test" },
  });
}

/** The fields of a response answering `inResponseTo` at `providerId`'s ACS. */
export function responseFieldsFor(
  providerId: string,
  nameId: string,
  inResponseTo: string | null,
): ResponseFields {
  return {
    acsUrl: `${TEST_ORIGIN}/api/auth/sso/saml2/sp/acs/${providerId}`,
    audience: TEST_SP_ENTITY_ID,
    nameId,
    inResponseTo,
    attributes: { email: nameId, displayName: nameId.split("@")[0] ?? nameId },
  };
}
