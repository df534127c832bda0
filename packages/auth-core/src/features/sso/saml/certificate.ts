import { createPublicKey, X509Certificate } from "node:crypto";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";

/**
 * The IdP's signing certificates of a SAML connection, read when the connection is registered or
 * changed (docs/security.md "SAML"), so a certificate pasted with a line missing is refused there
 * with a message naming it, not at every sign-in as an unverifiable response. Accepted as node-saml
 * reads them (verify-response.ts): a PEM block (a certificate, or a bare public key, which has no
 * expiry), or the certificate's base64 body alone, as metadata carries it.
 */

export type SamlCertificateRefusal = "SAML_CERTIFICATE_INVALID" | "SAML_CERTIFICATE_EXPIRED";

/** Null when the text is no certificate or public key node:crypto can read; else its expiry (null: a key). */
function readSamlCertificate(text: string): { expiresAt: Date | null } | null {
  const trimmed = text.trim();
  if (/^-----BEGIN PUBLIC KEY-----/.test(trimmed)) {
    try {
      createPublicKey(trimmed);
      return { expiresAt: null };
    } catch {
      return null;
    }
  }
  const pem = trimmed.startsWith("-----BEGIN ") ? trimmed : wrapCertificateBody(trimmed);
  if (pem === null) return null;
  try {
    return { expiresAt: new Date(new X509Certificate(pem).validTo) };
  } catch {
    return null;
  }
}

/** A bare base64 body as PEM, in 64-character lines (RFC 7468); null when it is not base64. */
function wrapCertificateBody(body: string): string | null {
  const compact = body.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return null;
  const lines = compact.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/**
 * Every certificate given (one, or several during a rotation) must be readable and unexpired at
 * `now`; the answer is the earliest expiry among them (null: none expires, or none was given).
 * An expired one is refused on its own code: it is almost always a stale copy, and an IdP that
 * rotated signs with the new one (sign-in itself does not check expiry, as node-saml does not).
 */
export function checkSamlCertificates(
  certificates: string | readonly string[] | undefined,
  now: Date,
): Outcome<Date | null, SamlCertificateRefusal> {
  let earliest: Date | null = null;
  for (const text of [certificates ?? []].flat()) {
    const read = readSamlCertificate(text);
    if (!read) return refused("SAML_CERTIFICATE_INVALID");
    if (read.expiresAt === null) continue;
    if (read.expiresAt.getTime() <= now.getTime()) return refused("SAML_CERTIFICATE_EXPIRED");
    if (earliest === null || read.expiresAt < earliest) earliest = read.expiresAt;
  }
  return granted(earliest);
}
