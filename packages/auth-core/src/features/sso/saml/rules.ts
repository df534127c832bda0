/**
 * Pure decisions about a SAML response (docs/security.md "SAML"): which XML is refused before any
 * parser sees it, which signature algorithms are accepted, and whether a validity window holds at a
 * given time. node-saml checks the signature; these are the checks Tessera adds around it.
 */

/** How far the IdP's clock may be from ours in either direction (docs/security.md "SAML"). */
export const SAML_CLOCK_SKEW_MS = 2 * 60_000;

/** How long a started SAML sign-in may take at the IdP before its AuthnRequest ID is forgotten. */
export const SAML_REQUEST_LIFETIME_SECONDS = 10 * 60;

/** A posted SAMLResponse larger than this is refused before it is decoded (a denial-of-service bound). */
export const SAML_RESPONSE_MAX_BYTES = 256 * 1024;

/**
 * Accepted SignatureMethod and DigestMethod algorithms: RSA or ECDSA with SHA-256 or SHA-512.
 * SHA-1 (collisions are practical, RFC 9231 §2.2.2 marks it deprecated) and MD5 are refused.
 */
const ALLOWED_ALGORITHMS = new Set([
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512",
  "http://www.w3.org/2001/04/xmlenc#sha256",
  "http://www.w3.org/2001/04/xmlenc#sha512",
]);

export type XmlRefusal = "doctype" | "comment" | "processing-instruction";

/**
 * Refuses the XML constructs a SAML response never needs and attacks use: a DOCTYPE (external
 * entities, entity expansion — XXE and "billion laughs"), comments (CVE-2017-11428: a comment inside
 * a NameID is dropped by canonicalisation, so `victim@corp.com<!---->.evil.com` keeps the IdP's
 * signature of `victim@corp.com.evil.com` while a text reader may see `victim@corp.com`) and
 * processing instructions (the same trick). Only a leading XML declaration is allowed. Null when
 * none is present.
 */
export function findRefusedXmlConstruct(xml: string): XmlRefusal | null {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) return "doctype";
  if (xml.includes("<!--")) return "comment";
  const body = xml.replace(/^\s*<\?xml\s[^?]*\?>/, "");
  if (body.includes("<?")) return "processing-instruction";
  return null;
}

/**
 * The first SignatureMethod or DigestMethod algorithm in `xml` that is not accepted, or null. Every
 * such element counts, wherever it is: a weak algorithm anywhere is refused.
 */
export function findWeakAlgorithm(xml: string): string | null {
  const pattern =
    /<(?:[\w.-]+:)?(?:SignatureMethod|DigestMethod)\b[^>]*?\bAlgorithm\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (const match of xml.matchAll(pattern)) {
    const algorithm = match[1] ?? match[2] ?? "";
    if (!ALLOWED_ALGORITHMS.has(algorithm)) return algorithm;
  }
  return null;
}

/**
 * The attributes of the document's root element start tag (`Destination`, `InResponseTo` of the
 * Response), read after findRefusedXmlConstruct passed, so no comment or DOCTYPE comes first. Null
 * when the root is not a SAML Response.
 */
export function readResponseAttributes(xml: string): Map<string, string> | null {
  const start =
    /^\s*(?:<\?xml\s[^?]*\?>\s*)?<(?:[\w.-]+:)?Response((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/.exec(
      xml,
    );
  if (!start) return null;
  const attributes = new Map<string, string>();
  for (const match of (start[1] ?? "").matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes.set(match[1] ?? "", decodeXmlText(match[2] ?? match[3] ?? ""));
  }
  return attributes;
}

function decodeXmlText(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

export type WindowCheck = "valid" | "not-yet-valid" | "expired";

/**
 * SAML core §2.5.1.2: valid from NotBefore (inclusive) until NotOnOrAfter (exclusive), each widened
 * by the allowed skew. An absent bound does not limit; an unreadable one fails.
 */
export function checkValidityWindow(
  window: { notBefore?: string | undefined; notOnOrAfter?: string | undefined },
  now: Date,
  skewMs: number = SAML_CLOCK_SKEW_MS,
): WindowCheck {
  const at = now.getTime();
  if (window.notBefore !== undefined) {
    const notBefore = Date.parse(window.notBefore);
    if (Number.isNaN(notBefore) || at + skewMs < notBefore) return "not-yet-valid";
  }
  if (window.notOnOrAfter !== undefined) {
    const notOnOrAfter = Date.parse(window.notOnOrAfter);
    if (Number.isNaN(notOnOrAfter) || at - skewMs >= notOnOrAfter) return "expired";
  }
  return "valid";
}

/**
 * RelayState of an IdP-initiated response: only a path of this app, and only one the safe-redirect
 * rule allows (`isAllowedCallbackURL`); anything else (another host, `//host`, a scheme) is refused.
 */
export function isSameAppPath(relayState: string, isAllowedCallbackURL: (url: string) => boolean): boolean {
  return relayState.startsWith("/") && !relayState.startsWith("//") && isAllowedCallbackURL(relayState);
}
