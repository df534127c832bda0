import type { ObjectId } from "mongodb";
import type { AuthContext } from "../../context.ts";
import { generateRandomString, signValue, unsignValue } from "../../crypto/index.ts";
import type { UserDoc } from "../../db/documents.ts";
import { parseId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { assertUserNotBanned } from "../admin/ban-service.ts";
import { createSession, setSessionCookies } from "../session/service.ts";
import { findUserById } from "../session/store.ts";
import { toUser, type User } from "../session/types.ts";
import { twoFactorCookieNames } from "./cookies.ts";
import {
  challengeAttemptPrefix,
  challengeIdentifier,
  lockoutWindow,
  parseChallenge,
  serializeChallenge,
  userAttemptPrefix,
  userAttemptsOfUser,
} from "./rules.ts";
import { claimSlot, deleteRowById, deleteRowsWithPrefix, findRow, insertRow } from "./store.ts";
import { issueTrustedDevice } from "./trusted-device.ts";

/**
 * The sign-in challenge: a password sign-in of a two-factor user mints no session; it stores a
 * challenge (10 minutes, DECISIONS.md) and hands the browser a signed cookie naming it. A verified
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
  const now = auth.now();
  const lifetime = auth.options.twoFactor.challengeExpiresIn;
  const payload = serializeChallenge({ userId: user._id.toHexString(), dontRemember });
  const expiresAt = new Date(now.getTime() + lifetime * 1000);
  if (!(await insertRow(auth.collections, challengeIdentifier(id), payload, expiresAt, now))) {
    throw new AuthError("FAILED_TO_CREATE_SESSION"); // a 190-bit id collided: not a client error
  }
  jar.set(
    twoFactorCookieNames(auth).challenge,
    signValue(`${COOKIE_VALUE_PREFIX}${id}`, auth.options.secret),
    {
      maxAge: lifetime,
    },
  );
}

export function hasChallengeCookie(auth: AuthContext, jar: CookieJar): boolean {
  return jar.get(twoFactorCookieNames(auth).challenge) !== undefined;
}

/** The live challenge the cookie names; throws INVALID_TWO_FACTOR_COOKIE for anything else. */
export async function readChallenge(auth: AuthContext, jar: CookieJar): Promise<ActiveChallenge> {
  const signed = jar.get(twoFactorCookieNames(auth).challenge);
  const value = signed ? unsignValue(signed, auth.options.secret) : null;
  if (!value?.startsWith(COOKIE_VALUE_PREFIX)) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  const id = value.slice(COOKIE_VALUE_PREFIX.length);
  const row = await findRow(auth.collections, challengeIdentifier(id));
  const payload = row ? parseChallenge(row.value) : null;
  const userId = payload ? parseId(payload.userId) : null;
  if (!row || !payload || !userId || row.expiresAt <= auth.now()) {
    throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  }
  return { id, rowId: row._id, userId, dontRemember: payload.dontRemember, expiresAt: row.expiresAt };
}

/**
 * Admits one code attempt before the code is looked at, so a burst of parallel guesses can never
 * test more codes than allowed: one slot per attempt on the challenge (`attemptsPerChallenge`,
 * then 400 TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: sign in again) and one per attempt of the user in
 * a fixed window (`failuresPerUser` per `lockoutWindow`, then 429 ACCOUNT_TEMPORARILY_LOCKED until
 * the window ends, with X-Retry-After). A success clears the user's slots (`resetUserAttempts`),
 * so only failures add up.
 */
export async function admitCodeAttempt(
  ctx: { auth: AuthContext; setHeader(name: string, value: string): void },
  userId: ObjectId,
  challenge: ActiveChallenge | null,
): Promise<void> {
  const { auth } = ctx;
  const now = auth.now();
  const config = auth.options.twoFactor;
  if (challenge) {
    const prefix = challengeAttemptPrefix(challenge.id);
    if (!(await claimSlot(auth.collections, prefix, config.attemptsPerChallenge, challenge.expiresAt, now))) {
      throw new AuthError("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
    }
  }
  const window = lockoutWindow(now, config.lockoutWindow);
  const prefix = userAttemptPrefix(userId.toHexString(), window.index);
  if (!(await claimSlot(auth.collections, prefix, config.failuresPerUser, window.endsAt, now))) {
    // Like a rate-limit answer: when to come back (the window's end).
    const seconds = Math.max(1, Math.ceil((window.endsAt.getTime() - now.getTime()) / 1000));
    ctx.setHeader("X-Retry-After", String(seconds));
    throw new AuthError("ACCOUNT_TEMPORARILY_LOCKED");
  }
}

export async function resetUserAttempts(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteRowsWithPrefix(auth.collections, userAttemptsOfUser(userId.toHexString()));
}

export interface SignInCompleted {
  token: string;
  user: User;
}

/**
 * The second factor is proven: consumes the challenge (exactly one caller wins it), runs the ban
 * check of every sign-in path (features/admin), mints the session with the sign-in's rememberMe,
 * and, when asked, trusts this device.
 */
export async function completeChallenge(
  auth: AuthContext,
  ctx: { cookies: CookieJar; ip: string | null; headers: Headers },
  challenge: ActiveChallenge,
  trustDevice: boolean,
): Promise<SignInCompleted> {
  if (!(await deleteRowById(auth.collections, challenge.rowId)))
    throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  ctx.cookies.delete(twoFactorCookieNames(auth).challenge);
  const found = await findUserById(auth.collections, challenge.userId);
  if (!found) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  await resetUserAttempts(auth, found._id);
  const user = await assertUserNotBanned(auth, found);
  const session = await createSession(auth, {
    userId: user._id,
    dontRemember: challenge.dontRemember,
    ipAddress: ctx.ip,
    userAgent: ctx.headers.get("user-agent"),
  });
  setSessionCookies(auth, ctx.cookies, session, user);
  if (trustDevice) await issueTrustedDevice(auth, ctx.cookies, user._id);
  return { token: session.token, user: toUser(user) };
}
