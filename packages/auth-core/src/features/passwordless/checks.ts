import { timingSafeEqual } from "node:crypto";
import type { AuthContext } from "../../context.ts";
import { sha256Base64Url } from "../../crypto/index.ts";
import type { UserDoc, VerificationDoc } from "../../db/documents.ts";
import { parseId } from "../../db/ids.ts";
import { type Granted, granted, type Refused, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import {
  checkSignInThrottle,
  clearSignInFailures,
  readKnownDevice,
  recordSignInFailure,
  type SignInRefused,
} from "../sign-in-throttle/index.ts";
import { findUserByEmail, findUserById } from "../users/index.ts";
import {
  attemptPrefix,
  isCodeShaped,
  isLinkTokenShaped,
  linkIdentifier,
  type MailedPurpose,
  type MailedRecord,
  macCode,
  parseRecord,
  recordIdentifier,
} from "./rules.ts";
import { claimAttempt, deleteRow, findAnyRow, findLiveRow, takeRecord } from "./store.ts";

export type CodeRefusal = Refused<"INVALID_OTP" | "OTP_EXPIRED" | "TOO_MANY_ATTEMPTS"> | SignInRefused;

export interface AcceptedCode {
  record: MailedRecord;
  /** The user the code signs in (findRecordHolder); null for an address nobody has (a sign-up). */
  user: UserDoc | null;
  /** The known-device id the cookie names for this user (the sign-in remembers it). */
  device: string | null;
}

/**
 * Checks a mailed code (docs/passwordless.md "Codes"). In order: the record of the purpose and
 * address (none: INVALID_OTP; past its time: OTP_EXPIRED); the account's sign-in throttle
 * (features/sign-in-throttle: its delays and lock hold for codes as for passwords), on the account
 * the record was mailed for; one of the code's tries, claimed before the code is looked at, so
 * parallel guesses never get more than `allowedAttempts` comparisons (none left: TOO_MANY_ATTEMPTS,
 * and the record dies — its link too); the MAC, compared in constant time. The tries bound what
 * one read of the throttle admits, so a wrong code is recorded as the account's failure after the
 * compare, and a right one writes to the throttle only to clear failures it found
 * (checkSignInThrottle). `consume`: the record is taken (once, of any number of concurrent right
 * answers); else it stays for the call that uses it (check-verification-otp), and the right
 * answer's try is given back.
 * An address nobody has goes through the same steps; its user is looked up only for a right code.
 */
export async function acceptMailedCode(
  auth: AuthContext,
  cookies: CookieJar,
  request: { purpose: MailedPurpose; email: string; code: string; consume: boolean },
): Promise<Granted<AcceptedCode> | CodeRefusal> {
  const { purpose, email, code } = request;
  if (!isCodeShaped(code)) return refused("INVALID_OTP");
  const identifier = recordIdentifier(auth.options.secret, purpose, email);
  const row = await findAnyRow(auth.collections, identifier);
  const record = row ? parseRecord(row.value) : null;
  if (!row || !record) return refused("INVALID_OTP");
  const now = auth.now();
  if (record.codeExpiresAt <= now.getTime()) return refused("OTP_EXPIRED");
  const userId = parseId(record.userId);
  const device = readKnownDevice(auth, cookies, userId);
  const throttle = await checkSignInThrottle(auth, { userId, email }, device);
  if (!throttle.ok) return throttle;
  const { allowedAttempts } = auth.options.emailOTP;
  const until = new Date(record.codeExpiresAt);
  const slot = await claimAttempt(auth.collections, attemptPrefix(record.nonce), allowedAttempts, until, now);
  if (slot === null) {
    await takeRecord(auth.collections, row);
    return refused("TOO_MANY_ATTEMPTS");
  }
  const given = Buffer.from(macCode(auth.options.secret, record.nonce, code));
  const stored = Buffer.from(record.code);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    await recordSignInFailure(auth, throttle.value);
    return refused("INVALID_OTP");
  }
  // A right code: independent writes and the read of its user go together (one round trip).
  const [isTaken, user] = await Promise.all([
    // A right answer that leaves the code for the call that uses it gives its try back: "check,
    // then use" must not cost two tries (docs/passwordless.md "Codes"). Claimed before the compare,
    // released only after a right one: parallel wrong guesses still get at most allowedAttempts.
    request.consume ? takeRecord(auth.collections, row) : deleteRow(auth.collections, slot).then(() => true),
    findRecordHolder(auth, record),
    userId && throttle.value.hasFailures && clearSignInFailures(auth, userId),
  ]);
  if (!isTaken) return refused("INVALID_OTP");
  return granted({ record, user, device: user && userId?.equals(user._id) ? device : null });
}

/**
 * The user a spent record signs in: the one it was mailed for while that user still holds the
 * address (one read by `_id`), else whoever holds it now (a sign-up or address change since the
 * mail), null for nobody.
 */
export async function findRecordHolder(auth: AuthContext, record: MailedRecord): Promise<UserDoc | null> {
  const userId = parseId(record.userId);
  const mailedTo = userId ? await findUserById(auth.collections, userId) : null;
  if (mailedTo?.email === record.email) return mailedTo;
  return findUserByEmail(auth.collections, record.email);
}

/**
 * The record a mailed link names, while the link is live: the token's row, its record, and the
 * record's own link hash (a newer request for the address replaced the record, and so killed this
 * link). Reads only: the GET of the link calls it, and must spend nothing.
 */
export async function findLiveLink(
  auth: AuthContext,
  token: string,
): Promise<{ row: VerificationDoc; record: MailedRecord } | null> {
  if (!isLinkTokenShaped(token)) return null;
  const now = auth.now();
  const tokenHash = sha256Base64Url(token);
  const pointer = await findLiveRow(auth.collections, linkIdentifier(tokenHash), now);
  const row = pointer ? await findLiveRow(auth.collections, pointer.value, now) : null;
  const record = row ? parseRecord(row.value) : null;
  if (!row || !record || record.link === null) return null;
  const stored = Buffer.from(record.link);
  const given = Buffer.from(tokenHash);
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
  return record.linkExpiresAt > now.getTime() ? { row, record } : null;
}

/** Uses a mailed link up (with its code): of concurrent uses exactly one gets the record. */
export async function takeLink(auth: AuthContext, token: string): Promise<MailedRecord | null> {
  const live = await findLiveLink(auth, token);
  if (!live) return null;
  // The link's row goes whoever wins the record: a lost take means it was spent or replaced.
  const [isTaken] = await Promise.all([
    takeRecord(auth.collections, live.row),
    deleteRow(auth.collections, linkIdentifier(sha256Base64Url(token))),
  ]);
  return isTaken ? live.record : null;
}
