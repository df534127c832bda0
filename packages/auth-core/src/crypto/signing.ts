import { createHmac, timingSafeEqual } from "node:crypto";
import { type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from "jose";

/**
 * Domain separation: signed cookie values are MACed with this prefix, so no other HMAC made with the
 * same secret (an HS256 JWT's signing input starts with "eyJ", the cookie cache uses its own prefix)
 * can ever pass as a signed cookie, or the other way round.
 */
const SIGNED_VALUE_DOMAIN = "tessera.signed-value:";

function macValue(value: string, secret: string): string {
  return createHmac("sha256", secret).update(SIGNED_VALUE_DOMAIN).update(value).digest("base64url");
}

/** HMAC-SHA256 signature, base64url without padding. */
export function signValue(value: string, secret: string): string {
  return `${value}.${macValue(value, secret)}`;
}

/** Returns the value when the signature is the server's, null otherwise (constant-time compare). */
export function unsignValue(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(macValue(value, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return value;
}

function jwtKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signJwt(
  payload: Record<string, unknown>,
  secret: string,
  expiresInSeconds: number,
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(iat)
    .setExpirationTime(iat + expiresInSeconds)
    .sign(jwtKey(secret));
}

export type JwtCheck = { ok: true; payload: JWTPayload } | { ok: false; reason: "expired" | "invalid" };

export async function verifyJwt(token: string, secret: string, now: Date): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify(token, jwtKey(secret), { algorithms: ["HS256"], currentDate: now });
    return { ok: true, payload };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "expired" };
    return { ok: false, reason: "invalid" };
  }
}
