import { createHmac, timingSafeEqual } from "node:crypto";
import type { AuthContext } from "../../context.ts";
import type { Enrollment } from "../../contracts/two-factor.ts";
import {
  DIGITS,
  decryptString,
  encryptString,
  generateRandomString,
  LOWER_ALPHANUMERIC,
} from "../../crypto/index.ts";
import {
  buildTotpURI,
  DEFAULT_TOTP_PARAMS,
  decodeBase32,
  findTotpStep,
  generateTotpSecret,
} from "../../crypto/totp.ts";
import type { AfterCollections } from "../../db/collections.ts";
import type { TwoFactorDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import {
  backupUsedIdentifier,
  backupUsedOfBatch,
  formatBackupCode,
  NEVER_EXPIRES,
  normalizeBackupCode,
  totpReplayExpiry,
  totpUsedIdentifier,
} from "./rules.ts";
import * as stored from "./store.ts";
import { deleteRow, deleteRowsWithPrefix, insertRow, replaceBackupCodes, saveTwoFactor } from "./store.ts";

function totpIssuer(auth: AuthContext): string {
  return auth.options.twoFactor.issuer ?? auth.options.appName;
}

/** docs/decisions/: 10 codes of 10 characters; shown as `xxxxx-xxxxx`, stored encrypted. */
function generateBackupCodes(auth: AuthContext): string[] {
  return Array.from({ length: auth.options.twoFactor.backupCodeCount }, () =>
    generateRandomString(10, LOWER_ALPHANUMERIC),
  );
}

export type { Enrollment } from "../../contracts/two-factor.ts";

/**
 * Stores a new, unconfirmed second factor: the user's sign-ins are not gated until a first TOTP
 * code confirms it (verify-totp with the session). Secret and codes are encrypted at rest.
 */
export async function enrollTwoFactor(auth: AuthContext, user: UserDoc): Promise<Enrollment> {
  const secret = generateTotpSecret();
  const codes = generateBackupCodes(auth);
  const now = auth.now();
  await saveTwoFactor(auth.collections, {
    _id: new ObjectId(),
    userId: user._id,
    secret: encryptString(secret, auth.options.secret),
    backupCodes: encryptString(JSON.stringify(codes), auth.options.secret),
    backupCodesBatch: generateRandomString(16),
    verified: false,
    createdAt: now,
    updatedAt: now,
  });
  return {
    totpURI: buildTotpURI(secret, totpIssuer(auth), user.email),
    backupCodes: codes.map(formatBackupCode),
  };
}

/** The otpauth URI of the stored secret; null when there is none (or it no longer decrypts). */
export function totpURIOf(auth: AuthContext, user: UserDoc, doc: TwoFactorDoc): string | null {
  const secret = decryptString(doc.secret, auth.options.secret);
  return secret === null ? null : buildTotpURI(secret, totpIssuer(auth), user.email);
}

/**
 * Replaces the backup codes with a new set. The used-code markers of the old set are removed after
 * the new set is written: a crash in between leaves only markers nothing can match.
 */
export async function regenerateBackupCodes(
  auth: AuthContext,
  doc: TwoFactorDoc,
): Promise<Outcome<string[], "TWO_FACTOR_NOT_ENABLED">> {
  const codes = generateBackupCodes(auth);
  const encrypted = encryptString(JSON.stringify(codes), auth.options.secret);
  if (
    !(await replaceBackupCodes(auth.collections, doc._id, encrypted, generateRandomString(16), auth.now()))
  ) {
    return refused("TWO_FACTOR_NOT_ENABLED");
  }
  // Only the old set's markers: a code of the new set used meanwhile stays used.
  await deleteRowsWithPrefix(
    auth.collections,
    backupUsedOfBatch(doc.userId.toHexString(), doc.backupCodesBatch),
  );
  return granted(codes.map(formatBackupCode));
}

/**
 * A TOTP code of the stored secret (±`totpWindow` steps), accepted once: the step it matched is
 * claimed with a unique row, so the same code replayed — or sent twice in parallel — within its
 * window is refused (RFC 6238 §5.2, docs/security.md).
 */
export async function acceptTotpCode(auth: AuthContext, doc: TwoFactorDoc, code: string): Promise<boolean> {
  const secret = decryptString(doc.secret, auth.options.secret);
  const key = secret === null ? null : decodeBase32(secret);
  if (!key) return false;
  const now = auth.now();
  const window = auth.options.twoFactor.totpWindow;
  const step = findTotpStep(key, code, now, window);
  if (step === null) return false;
  const user = doc.userId.toHexString();
  const expiresAt = totpReplayExpiry(step, window, DEFAULT_TOTP_PARAMS.period);
  return insertRow(auth.collections, totpUsedIdentifier(user, step), "", expiresAt, now);
}

/**
 * A backup code of the current set, claimed once: its marker is a unique row, so of ten parallel
 * uses of one code exactly one gets it. Every stored code is compared, in constant time. Returns
 * the marker's identifier (for `releaseBackupCode`), or null when the code is not a usable one.
 */
export async function claimBackupCode(
  auth: AuthContext,
  doc: TwoFactorDoc,
  code: string,
): Promise<string | null> {
  const normalized = normalizeBackupCode(code);
  if (!/^[0-9a-z]{10}$/.test(normalized)) return null;
  const stored = decryptString(doc.backupCodes, auth.options.secret);
  const codes = stored === null ? [] : (JSON.parse(stored) as string[]);
  const given = Buffer.from(normalized);
  let index = -1;
  codes.forEach((candidate, i) => {
    const expected = Buffer.from(candidate);
    if (expected.length === given.length && timingSafeEqual(given, expected) && index < 0) index = i;
  });
  if (index < 0) return null;
  const marker = backupUsedIdentifier(doc.userId.toHexString(), doc.backupCodesBatch, index);
  return (await insertRow(auth.collections, marker, "", NEVER_EXPIRES, auth.now())) ? marker : null;
}

/** A claimed code whose request lost the sign-in to a parallel one stays usable. */
export async function releaseBackupCode(auth: AuthContext, marker: string): Promise<void> {
  await deleteRow(auth.collections, marker);
}

/** The emailed code as stored: a MAC bound to its challenge, never the code (docs/security.md). */
export function macOtp(auth: AuthContext, challengeId: string, code: string): string {
  return createHmac("sha256", auth.options.secret)
    .update(`tessera.two-factor-otp:${challengeId}:${code}`)
    .digest("base64url");
}

export function generateOtp(): string {
  return generateRandomString(6, DIGITS);
}

/** The user's confirmed second factor; null when two-factor is not on. */
export async function findEnabledTwoFactor(auth: AuthContext, user: UserDoc): Promise<TwoFactorDoc | null> {
  const doc = user.twoFactorEnabled ? await stored.findTwoFactor(auth.collections, user._id) : null;
  return doc?.verified ? doc : null;
}

/*
 * Reads and writes the endpoints make as they are: the store's, with this instance's collections
 * (endpoints call services, never the store).
 */

export function deleteRowsWithPrefixes(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteRowsWithPrefixes>
): ReturnType<typeof stored.deleteRowsWithPrefixes> {
  return stored.deleteRowsWithPrefixes(auth.collections, ...args);
}

export function findTwoFactor(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findTwoFactor>
): ReturnType<typeof stored.findTwoFactor> {
  return stored.findTwoFactor(auth.collections, ...args);
}
