/**
 * Pure decisions of passwordless sign-in (docs/passwordless.md): the names of its rows, the record
 * one mail stands for, and what a mail carries. Everything lives in `verifications` under these
 * identifiers, so its unique index decides every race and `auth.cleanup()` removes what expired.
 */
import { createHmac } from "node:crypto";

/** What a mailed code (and the record behind it) is for; a code of one purpose is no code for another. */
export type MailedPurpose = "sign-in" | "email-verification" | "forget-password";

/**
 * The one outstanding record of a purpose and address: a new request replaces it, so only the
 * latest mail works. The address is a keyed hash, so the identifier names nobody.
 */
export function recordIdentifier(secret: string, purpose: MailedPurpose, email: string): string {
  const key = createHmac("sha256", secret)
    .update(`tessera.passwordless-address:${email}`)
    .digest("base64url");
  return `passwordless:${purpose}:${key}`;
}

/** The mailed link's row: keyed by the token's SHA-256 (a copy of the table holds no working link); value: the record's identifier. */
export const linkIdentifier = (tokenHash: string) => `passwordless-link:${tokenHash}`;

/** One row per try of a record's code, numbered 1..allowedAttempts (a unique insert each: exact under concurrency). */
export const attemptPrefix = (nonce: string) => `passwordless-attempt:${nonce}:`;

export const LINK_TOKEN_LENGTH = 32;
const LINK_TOKEN_SHAPE = /^[A-Za-z0-9]{32}$/;
const CODE_SHAPE = /^\d{6}$/;

/** A token that cannot have been issued is refused without a database round trip. */
export function isLinkTokenShaped(token: string): boolean {
  return LINK_TOKEN_SHAPE.test(token);
}

export function isCodeShaped(code: string): boolean {
  return CODE_SHAPE.test(code);
}

/**
 * The stored form of a code: an HMAC under the auth secret, bound to its record's nonce. Six digits
 * are a million values — an unkeyed hash of one is read back by trying them all.
 */
export function macCode(secret: string, nonce: string, code: string): string {
  return createHmac("sha256", secret)
    .update(`tessera.passwordless-code:${nonce}:${code}`)
    .digest("base64url");
}

/** What one mail stands for; `link` and `code` are stored hashed, never in clear. */
export interface MailedRecord {
  nonce: string;
  email: string;
  /**
   * The address's user when the mail was asked for (hex id), null for nobody: a try at the code is
   * throttled on that account without looking the address up first (checks.ts).
   */
  userId: string | null;
  /** macCode of the mailed code; the MAC of a non-code when the mail carried none (no code matches). */
  code: string;
  codeExpiresAt: number;
  /** SHA-256 of the link's token; null when the mail carried no link. */
  link: string | null;
  linkExpiresAt: number;
  /** For a sign-up: the name and language the request gave. */
  name: string | null;
  language: string | null;
}

export function serializeRecord(record: MailedRecord): string {
  return JSON.stringify(record);
}

/** Null for anything that is not a record this feature wrote. */
export function parseRecord(value: string): MailedRecord | null {
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>;
    const isText = (key: string) => typeof parsed[key] === "string";
    const isTextOrNull = (key: string) => parsed[key] === null || isText(key);
    if (!isText("nonce") || !isText("email") || !isText("code") || !isTextOrNull("link")) return null;
    if (typeof parsed.codeExpiresAt !== "number" || typeof parsed.linkExpiresAt !== "number") return null;
    if (!isTextOrNull("name") || !isTextOrNull("language") || !isTextOrNull("userId")) return null;
    return parsed as unknown as MailedRecord;
  } catch {
    return null;
  }
}

interface PasswordlessConfig {
  magicLink: { enabled: boolean; disableSignUp: boolean };
  emailOTP: { enabled: boolean; disableSignUp: boolean };
}

/**
 * What a sign-in mail carries: the link when POST /magic-link/verify would take it, the code when
 * POST /sign-in/email-otp would — for an address nobody has, only where that path signs up. A mail
 * with neither is not sent (the request is answered the same).
 */
export function signInMailParts(
  config: PasswordlessConfig,
  isKnown: boolean,
): { link: boolean; code: boolean } {
  const { magicLink, emailOTP } = config;
  return {
    link: magicLink.enabled && (isKnown || !magicLink.disableSignUp),
    code: emailOTP.enabled && (isKnown || !emailOTP.disableSignUp),
  };
}

/** Whole minutes stated in a mail, rounded down so the mail never promises more time than there is. */
export function mailMinutes(expiresInSeconds: number): number {
  return Math.max(1, Math.floor(expiresInSeconds / 60));
}
