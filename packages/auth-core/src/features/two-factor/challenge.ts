import type { AuthContext } from "../../context.ts";
import type { SignInCompleted } from "../../contracts/two-factor.ts";
import { generateRandomString, signValue, unsignValue } from "../../crypto/index.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { parseId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { type Granted, granted, type Outcome, type Refused, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { establishSession, toUser } from "../session/index.ts";
import { findUserById } from "../users/index.ts";
import { twoFactorCookieNames } from "./cookies.ts";
import { admitUserAttempt, resetUserAttempts } from "./lockout.ts";
import {
  challengeAttemptPrefix,
  challengeIdentifier,
  parseChallenge,
  parseChallengeReference,
  serializeChallenge,
  sessionAttemptPrefix,
} from "./rules.ts";
import { claimSlot, deleteRowById, findRow, insertRow } from "./store.ts";
import { issueTrustedDevice } from "./trusted-device.ts";

/**
 * The sign-in challenge: a password sign-in of a two-factor user mints no session; it stores a
 * challenge (10 minutes, docs/decisions/) and hands the browser a signed cookie naming it. A verified
 * second factor then consumes the challenge — a delete whose count decides, so exactly one session
 * comes out of one challenge however many requests race.
 */
export interface ActiveChallenge {
  id: string;
  rowId: ObjectId;
  userId: ObjectId;
  dontRemember: boolean;
  expiresAt: Date;
}

// Domain separation inside the signed value: no other signed cookie can pass as a challenge.
const COOKIE_VALUE_PREFIX = "two-factor:";

export async function createChallenge(
  auth: AuthContext,
  jar: CookieJar,
  user: UserDoc,
  dontRemember: boolean,
): Promise<void> {
  const id = generateRandomString(32);
  const userId = user._id.toHexString();
  const now = auth.now();
  const lifetime = auth.options.twoFactor.challengeExpiresIn;
  const payload = serializeChallenge({ userId, dontRemember });
  const expiresAt = new Date(now.getTime() + lifetime * 1000);
  if (!(await insertRow(auth.collections, challengeIdentifier(userId, id), payload, expiresAt, now))) {
    throw new AuthError("FAILED_TO_CREATE_SESSION"); // a 190-bit id collided: not a client error
  }
  jar.set(
    twoFactorCookieNames(auth).challenge,
    signValue(`${COOKIE_VALUE_PREFIX}${userId}.${id}`, auth.options.secret),
    {
      maxAge: lifetime,
    },
  );
}

export function hasChallengeCookie(auth: AuthContext, jar: CookieJar): boolean {
  return jar.get(twoFactorCookieNames(auth).challenge) !== undefined;
}

/** The live challenge the cookie names; null for anything else (endpoints: INVALID_TWO_FACTOR_COOKIE). */
export async function readChallenge(auth: AuthContext, jar: CookieJar): Promise<ActiveChallenge | null> {
  const signed = jar.get(twoFactorCookieNames(auth).challenge);
  const value = signed ? unsignValue(signed, auth.options.secret) : null;
  const ref = value?.startsWith(COOKIE_VALUE_PREFIX)
    ? parseChallengeReference(value.slice(COOKIE_VALUE_PREFIX.length))
    : null;
  if (!ref) return null;
  const row = await findRow(auth.collections, challengeIdentifier(ref.userId, ref.challengeId));
  const payload = row ? parseChallenge(row.value) : null;
  const userId = payload?.userId === ref.userId ? parseId(payload.userId) : null;
  if (!row || !payload || !userId || row.expiresAt <= auth.now()) return null;
  const { challengeId: id } = ref;
  return { id, rowId: row._id, userId, dontRemember: payload.dontRemember, expiresAt: row.expiresAt };
}

/**
 * Admits one code attempt at sign-in before the code is looked at, so a burst of parallel guesses
 * can never test more codes than allowed: one slot per attempt on the challenge
 * (`attemptsPerChallenge`, then 400 TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: sign in again) and one of
 * the user's consecutive-failure slots (lockout.ts: 429 ACCOUNT_TEMPORARILY_LOCKED with
 * X-Retry-After, or 403 TWO_FACTOR_LOCKED after 100). A backup code is still checked while the user
 * is locked (docs/security.md: the owner's way past a lock someone else's guesses caused).
 * Answers a refusal value; the endpoints' guard (endpoints/guards.ts) answers it, X-Retry-After too.
 */
export async function admitCodeAttempt(
  auth: AuthContext,
  challenge: ActiveChallenge,
  method: "code" | "backup-code",
): Promise<Granted<void> | CodeAttemptRefused> {
  const now = auth.now();
  const prefix = challengeAttemptPrefix(challenge.id);
  const perChallenge = auth.options.twoFactor.attemptsPerChallenge;
  if (!(await claimSlot(auth.collections, prefix, perChallenge, challenge.expiresAt, now))) {
    return refused("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
  }
  const admission = await admitUserAttempt(auth, challenge.userId);
  if (admission.admitted || method === "backup-code") return granted(undefined);
  if (admission.until === null) return refused("TWO_FACTOR_LOCKED");
  // Like a rate-limit answer: when to come back.
  const retryAfterSeconds = Math.max(1, Math.ceil((admission.until.getTime() - now.getTime()) / 1000));
  return { ...refused("ACCOUNT_TEMPORARILY_LOCKED"), retryAfterSeconds };
}

/** A refused code attempt: the temporary lock says when to come back. */
export type CodeAttemptRefused =
  | Refused<"TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" | "TWO_FACTOR_LOCKED">
  | (Refused<"ACCOUNT_TEMPORARILY_LOCKED"> & { retryAfterSeconds: number });

/**
 * A code checked with a session (enrollment confirmation, verify-totp without a challenge) draws on
 * the session's own allowance — `attemptsPerChallenge` consecutive failures per session, then 400
 * TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE (sign in again) — never on the user's sign-in lock, so a
 * stolen session cannot lock the owner out (docs/security.md).
 */
export async function admitSessionAttempt(
  auth: AuthContext,
  session: SessionDoc,
): Promise<Outcome<void, "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE">> {
  const prefix = sessionAttemptPrefix(session._id.toHexString());
  const max = auth.options.twoFactor.attemptsPerChallenge;
  if (!(await claimSlot(auth.collections, prefix, max, session.expiresAt, auth.now()))) {
    return refused("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
  }
  return granted(undefined);
}

export type { SignInCompleted } from "../../contracts/two-factor.ts";

/**
 * The second factor is proven: consumes the challenge (exactly one caller wins it; a loser runs
 * `onLost`), then gets the session through the session pipeline — the ban check of every sign-in
 * path, the gate passed — with the sign-in's rememberMe, and, when asked, trusts this device.
 * Refused INVALID_TWO_FACTOR_COOKIE (a lost race, a user gone) or BANNED_USER (endpoints/guards.ts
 * answerCompletion gives the latter `admin.bannedUserMessage`).
 */
export async function completeChallenge(
  auth: AuthContext,
  ctx: { cookies: CookieJar; ip: string | null; headers: Headers },
  challenge: ActiveChallenge,
  trustDevice: boolean,
  onLost?: () => Promise<void>,
): Promise<Outcome<SignInCompleted, "INVALID_TWO_FACTOR_COOKIE" | "BANNED_USER">> {
  if (!(await deleteRowById(auth.collections, challenge.rowId))) {
    // A parallel request completed this sign-in: give back what this one claimed (a backup code).
    await onLost?.();
    return refused("INVALID_TWO_FACTOR_COOKIE");
  }
  ctx.cookies.delete(twoFactorCookieNames(auth).challenge);
  const found = await findUserById(auth.collections, challenge.userId);
  if (!found) return refused("INVALID_TWO_FACTOR_COOKIE");
  await resetUserAttempts(auth, found._id);
  const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
  const established = await establishSession(auth, request, found, {
    rememberMe: !challenge.dontRemember,
    ban: "check",
    secondFactor: "passed",
  });
  if (established.kind === "banned") return refused("BANNED_USER");
  const { session, user } = established;
  if (trustDevice) await issueTrustedDevice(auth, ctx.cookies, user._id);
  return granted({ token: session.token, user: toUser(user) });
}
