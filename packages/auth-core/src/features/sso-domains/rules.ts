import { domainToASCII } from "node:url";
import type { OrganizationDomainDoc } from "../../db/documents.ts";
import { CONSUMER_BRANDS, CONSUMER_DOMAINS, MULTI_LABEL_PUBLIC_SUFFIXES } from "./consumer-domains.ts";

/**
 * Pure decisions about claimed domains (docs/security.md "Verified domains"). No I/O; the clock is
 * passed in.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as stored and compared: trimmed, lower case, IDNA to ASCII (punycode, UTS #46 through
 * node:url), one trailing dot dropped. Null when it is not a host name: an address, a URL, an IP
 * address, a wildcard, an empty or over-long label (RFC 1035 §2.3.4: 63 per label, 253 in all).
 */
export function normalizeDomain(input: string): string | null {
  let value = input.trim().toLowerCase();
  if (value.endsWith(".")) value = value.slice(0, -1);
  if (value.length === 0 || value.length > 253 || !/^[\p{L}\p{M}\p{N}.-]+$/u.test(value)) return null;
  const ascii = domainToASCII(value);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split(".");
  if (!labels.every((label) => LABEL.test(label))) return null;
  // A numeric top label is an IPv4 address (or part of one), never a registrable name.
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null;
  return ascii;
}

/** The domain of an address (stored addresses are lower case), normalized; null when it has none. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  return at < 0 ? null : normalizeDomain(email.slice(at + 1));
}

function isPublicSuffix(domain: string): boolean {
  return !domain.includes(".") || MULTI_LABEL_PUBLIC_SUFFIXES.has(domain);
}

/**
 * False for a public suffix itself (com, co.uk) and for a free-mail or consumer domain or any of
 * its subdomains (consumer-domains.ts): no organization holds their addresses.
 */
export function isClaimableDomain(domain: string): boolean {
  if (isPublicSuffix(domain)) return false;
  const labels = domain.split(".");
  for (let start = 0; start < labels.length - 1; start++) {
    const tail = labels.slice(start).join(".");
    if (CONSUMER_DOMAINS.has(tail)) return false;
    if (CONSUMER_BRANDS.has(labels[start]!) && isPublicSuffix(labels.slice(start + 1).join(".")))
      return false;
  }
  return true;
}

/** Where the DNS proof lives: a TXT record on this name. */
export function challengeHostname(domain: string): string {
  return `_tessera-challenge.${domain}`;
}

/** The TXT record's value: prefixed, so it reads for itself among a zone's other TXT records. */
export function challengeRecordValue(token: string): string {
  return `tessera-domain-verification=${token}`;
}

/** The HTTPS proof's path on `https://<domain>`; its body is the token. */
export function challengeFilePath(token: string): string {
  return `/.well-known/tessera-challenge/${token}`;
}

/** A TXT answer proves the claim when one record (its strings joined, RFC 7208 §3.3) is the value. */
export function txtRecordsProve(records: readonly (readonly string[])[], token: string): boolean {
  const expected = challengeRecordValue(token);
  return records.some((chunks) => chunks.join("").trim() === expected);
}

/** The file proves the claim when its body, whitespace aside, is the token. */
export function fileBodyProves(body: string, token: string): boolean {
  return body.trim() === token;
}

/** A pending claim past its expiry: no proof may complete it, and it holds nothing. */
export function isClaimLapsed(doc: Pick<OrganizationDomainDoc, "status" | "expiresAt">, now: Date): boolean {
  return doc.status === "pending" && doc.expiresAt !== null && doc.expiresAt.getTime() <= now.getTime();
}

/**
 * The role auto-join may give: one the organization's role table knows, never the creator role
 * (an owner is chosen, never joined by address).
 */
export function isAutoJoinRoleAllowed(
  role: string,
  knownRoles: readonly string[],
  creatorRole: string,
): boolean {
  return role !== creatorRole && knownRoles.includes(role);
}
