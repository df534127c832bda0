import { createHash, randomInt } from "node:crypto";

export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LOWER_ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz";
export const DIGITS = "0123456789";

/** Uniform over the alphabet: crypto.randomInt rejects biased draws (never Math.random). */
export function generateRandomString(length: number, alphabet: string = ALPHANUMERIC): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** docs/decisions/: session token 32 chars [A-Za-z0-9]. */
export function generateSessionToken(): string {
  return generateRandomString(32);
}

export function sha256Base64Url(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}
