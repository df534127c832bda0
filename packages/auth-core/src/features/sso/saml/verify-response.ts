import { type Profile, SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import type { SamlConnection } from "./connection.ts";
import {
  checkValidityWindow,
  findRefusedXmlConstruct,
  findWeakAlgorithm,
  readResponseAttributes,
  SAML_RESPONSE_MAX_BYTES,
} from "./rules.ts";

/** What a verified assertion says, read only from the bytes its signature covers. */
export interface VerifiedAssertion {
  assertionId: string;
  /** The signed Issuer: the IdP's entity id. */
  issuer: string;
  nameId: string;
  nameIdFormat: string | null;
  /** The signed SubjectConfirmationData's InResponseTo; null for an IdP-initiated response. */
  inResponseTo: string | null;
  /** Until when the assertion could be accepted (its latest NotOnOrAfter plus the skew). */
  usableUntil: Date;
  attributes: Record<string, string | string[]>;
}

/**
 * Why a response was refused, each a catalogue code (docs/security.md "SAML"): the endpoint answers
 * it as it is.
 */
export type SamlRefusal =
  | "INVALID_SAML_RESPONSE"
  | "SAML_XML_NOT_ALLOWED"
  | "SAML_ALGORITHM_NOT_ALLOWED"
  | "SAML_RESPONSE_EXPIRED"
  | "SAML_WRONG_RECIPIENT"
  | "SAML_WRONG_ISSUER";

const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";

/** The node-saml instance of a connection: signature, audience and structure checks. */
export function createSamlClient(connection: SamlConnection): SAML {
  return new SAML({
    entryPoint: connection.ssoUrl,
    issuer: connection.spEntityId,
    callbackUrl: connection.acsUrl,
    idpCert: connection.certificates,
    audience: connection.audience,
    // Each assertion must carry the IdP's signature; a signed Response around an unsigned
    // assertion is enough only when the connection says so (wantAssertionsSigned: false).
    wantAssertionsSigned: connection.wantAssertionsSigned,
    wantAuthnResponseSigned: false,
    // InResponseTo is checked against the database (acs-flow.ts), shared by every instance of the
    // app; node-saml's own cache lives in one process's memory.
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: connection.clockSkewMs,
    identifierFormat: connection.identifierFormat,
    signatureAlgorithm: "sha256",
    disableRequestedAuthnContext: true,
  });
}

/**
 * Verifies a posted SAMLResponse (base64) for a connection: our XML and algorithm rules first, then
 * node-saml (signature by the connection's certificates — xml-crypto —, one assertion, audience,
 * conditions), then what node-saml leaves to the caller: the signed Issuer, the Destination and the
 * bearer confirmation's Recipient, and the validity windows on our clock.
 */
export async function verifySamlResponse(
  connection: SamlConnection,
  samlResponse: string,
  now: Date,
): Promise<Outcome<VerifiedAssertion, SamlRefusal>> {
  if (samlResponse.length > (SAML_RESPONSE_MAX_BYTES * 4) / 3 + 4) return refused("INVALID_SAML_RESPONSE");
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  if (findRefusedXmlConstruct(xml)) return refused("SAML_XML_NOT_ALLOWED");
  if (findWeakAlgorithm(xml)) return refused("SAML_ALGORITHM_NOT_ALLOWED");
  const response = readResponseAttributes(xml);
  if (!response) return refused("INVALID_SAML_RESPONSE");
  // SAML core §3.2.2: a Destination present must be where it arrived.
  const destination = response.get("Destination");
  if (destination !== undefined && destination !== connection.acsUrl) return refused("SAML_WRONG_RECIPIENT");

  let profile: Profile | null;
  try {
    ({ profile } = await createSamlClient(connection).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    return refused(refusalOfNodeSamlError(error));
  }
  if (!profile) return refused("INVALID_SAML_RESPONSE");
  const assertion = readSignedAssertion(profile);
  if (!assertion) return refused("INVALID_SAML_RESPONSE");
  if (assertion.issuer !== connection.idpEntityId) return refused("SAML_WRONG_ISSUER");
  const responseIssuer = /<(?:[\w.-]+:)?Issuer\b[^>]*>([^<]*)</.exec(xml)?.[1];
  if (responseIssuer !== undefined && responseIssuer.trim() !== connection.idpEntityId)
    return refused("SAML_WRONG_ISSUER");

  // SAML profiles §4.1.4.2-3: a bearer confirmation naming our ACS, still valid.
  const confirmation = assertion.bearer.find((data) => data.recipient === connection.acsUrl);
  if (!confirmation) return refused("SAML_WRONG_RECIPIENT");
  if (!confirmation.notOnOrAfter) return refused("INVALID_SAML_RESPONSE");
  for (const window of [assertion.conditions, { notOnOrAfter: confirmation.notOnOrAfter }]) {
    if (checkValidityWindow(window, now, connection.clockSkewMs) !== "valid")
      return refused("SAML_RESPONSE_EXPIRED");
  }
  const inResponseTo = confirmation.inResponseTo ?? null;
  const outerInResponseTo = response.get("InResponseTo") ?? null;
  if (outerInResponseTo !== null && outerInResponseTo !== inResponseTo)
    return refused("INVALID_SAML_RESPONSE");

  const ends = [assertion.conditions.notOnOrAfter, confirmation.notOnOrAfter]
    .filter((value): value is string => value !== undefined)
    .map((value) => Date.parse(value));
  return granted({
    assertionId: assertion.id,
    issuer: assertion.issuer,
    nameId: profile.nameID,
    nameIdFormat: profile.nameIDFormat ?? null,
    inResponseTo,
    usableUntil: new Date(Math.max(...ends) + connection.clockSkewMs),
    attributes: readAttributes(profile),
  });
}

/** node-saml throws plain errors; the ones about time and audience get their own answers. */
function refusalOfNodeSamlError(error: unknown): SamlRefusal {
  const message = error instanceof Error ? error.message : "";
  if (/not yet valid|expired/i.test(message)) return "SAML_RESPONSE_EXPIRED";
  if (/audience/i.test(message)) return "SAML_WRONG_RECIPIENT";
  return "INVALID_SAML_RESPONSE";
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };

interface SignedAssertion {
  id: string;
  issuer: string;
  conditions: { notBefore?: string; notOnOrAfter?: string };
  bearer: { recipient?: string; inResponseTo?: string; notOnOrAfter?: string }[];
}

/** The fields node-saml's profile leaves out, from its parse of the signed assertion. */
function readSignedAssertion(profile: Profile): SignedAssertion | null {
  const root = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const id = root?.$?.ID;
  if (!root || !id || id.length > 256) return null;
  const issuer = firstChild(root, "Issuer")?._?.trim();
  if (!issuer) return null;
  const conditions = firstChild(root, "Conditions")?.$ ?? {};
  const confirmations = children(firstChild(root, "Subject"), "SubjectConfirmation");
  const bearer = confirmations
    .filter((confirmation) => confirmation.$?.Method === BEARER)
    .flatMap((confirmation) => children(confirmation, "SubjectConfirmationData"))
    .map((data) => ({
      recipient: data.$?.Recipient,
      inResponseTo: data.$?.InResponseTo,
      notOnOrAfter: data.$?.NotOnOrAfter,
    }));
  return {
    id,
    issuer,
    conditions: { notBefore: conditions.NotBefore, notOnOrAfter: conditions.NotOnOrAfter },
    bearer,
  };
}

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function firstChild(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

function readAttributes(profile: Profile): Record<string, string | string[]> {
  const attributes: Record<string, string | string[]> = {};
  const source = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === "string") attributes[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      attributes[name] = value;
  }
  return attributes;
}
