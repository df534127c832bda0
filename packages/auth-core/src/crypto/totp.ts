import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * HOTP (RFC 4226) and TOTP (RFC 6238). docs/decisions/0014-two-factor.md "Two-factor": SHA-1, 6 digits, 30 s steps,
 * ±1 step accepted for clock drift. Pure functions of (secret, time): the clock is passed in.
 */

/** @internal Exported for its unit test (totp.test.ts). */
export type TotpAlgorithm = "sha1" | "sha256" | "sha512";

export interface TotpParams {
  digits: number;
  period: number;
  algorithm: TotpAlgorithm;
}

export const DEFAULT_TOTP_PARAMS: TotpParams = { digits: 6, period: 30, algorithm: "sha1" };

/**
 * RFC 4226 §5.3: HMAC of the 8-byte big-endian counter, dynamic truncation, modulo 10^digits.
 * @internal Exported for its unit test (totp.test.ts: RFC 4226 vectors).
 */
export function generateHotp(
  key: Uint8Array,
  counter: number,
  digits = 6,
  algorithm: TotpAlgorithm = "sha1",
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary =
    ((mac[offset]! & 0x7f) << 24) |
    ((mac[offset + 1]! & 0xff) << 16) |
    ((mac[offset + 2]! & 0xff) << 8) |
    (mac[offset + 3]! & 0xff);
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** RFC 6238 §4.2: the time step T = floor(unix seconds / period). */
function totpStep(now: Date, period: number): number {
  return Math.floor(now.getTime() / 1000 / period);
}

/** @internal Exported for the tests' authenticator (totp.test.ts, tests/support/two-factor.ts). */
export function generateTotp(key: Uint8Array, now: Date, params: TotpParams = DEFAULT_TOTP_PARAMS): string {
  return generateHotp(key, totpStep(now, params.period), params.digits, params.algorithm);
}

/**
 * The time step whose code `code` is, within ±`window` steps of now (RFC 6238 §5.2 drift), or null.
 * Every candidate is compared in constant time, and all of them are always computed, so the answer
 * time does not tell which step matched. Replay of a step is the caller's concern (a one-time claim
 * per step, features/two-factor).
 */
export function findTotpStep(
  key: Uint8Array,
  code: string,
  now: Date,
  window = 1,
  params: TotpParams = DEFAULT_TOTP_PARAMS,
): number | null {
  if (code.length !== params.digits || !/^\d+$/.test(code)) return null;
  const current = totpStep(now, params.period);
  const given = Buffer.from(code);
  let matched: number | null = null;
  for (let step = current - window; step <= current + window; step++) {
    const expected = Buffer.from(generateHotp(key, step, params.digits, params.algorithm));
    if (timingSafeEqual(given, expected) && matched === null) matched = step;
  }
  return matched;
}

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * RFC 4648 base32 without padding (what authenticator apps expect in `secret=`).
 * @internal Exported for its unit test (totp.test.ts).
 */
export function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes RFC 4648 base32 (case-insensitive, padding ignored); null on a character outside it. */
export function decodeBase32(text: string): Uint8Array | null {
  const clean = text.toUpperCase().replace(/=+$/, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** RFC 4226 §4 R6 recommends 160-bit shared secrets. Returned base32-encoded. */
export function generateTotpSecret(): string {
  return encodeBase32(randomBytes(20));
}

/**
 * The Key URI Format understood by authenticator apps:
 * `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
 */
export function buildTotpURI(
  secret: string,
  issuer: string,
  account: string,
  params: TotpParams = DEFAULT_TOTP_PARAMS,
): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: params.algorithm.toUpperCase(),
    digits: String(params.digits),
    period: String(params.period),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
