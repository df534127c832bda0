import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (provider tokens, TOTP secrets, backup codes). The key is derived
 * from the server secret with HKDF so the raw secret is never used as a cipher key directly.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
function deriveKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync("sha256", secret, "tessera", "tessera-encryption-v1", 32)));
}

/**
 * The derived key of each secret, derived once: an HKDF and a key object per seal or open was ~6% of
 * an SSO sign-in's server time (the state, the tokens; docs/scale.md "Server CPU cuts, 2026-11-30").
 * A memo of a pure function, not state: the same secret always derives the same key, so instances
 * sharing it share nothing they could tell apart. Bounded, oldest out, for a process that goes
 * through many secrets (tests).
 */
const derivedKeys = new Map<string, KeyObject>();
const MAX_DERIVED_KEYS = 16;

/** @internal Exported for encryption.test.ts. */
export function encryptionKeyOf(secret: string): KeyObject {
  let key = derivedKeys.get(secret);
  if (key === undefined) {
    key = deriveKey(secret);
    if (derivedKeys.size >= MAX_DERIVED_KEYS) derivedKeys.delete(derivedKeys.keys().next().value as string);
    derivedKeys.set(secret, key);
  }
  return key;
}

export function encryptString(plaintext: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKeyOf(secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

/** Returns null when the envelope is malformed or was not produced with this secret. */
export function decryptString(envelope: string, secret: string): string | null {
  const [version, iv, tag, body] = envelope.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKeyOf(secret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
