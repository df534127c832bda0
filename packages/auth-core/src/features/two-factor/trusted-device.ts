import type { AuthContext } from "../../context.ts";
import { generateRandomString, signValue, unsignValue } from "../../crypto/index.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { twoFactorCookieNames } from "./cookies.ts";
import { parseTrustValue, trustIdentifier } from "./rules.ts";
import { findRow, insertRow } from "./store.ts";

// Domain separation inside the signed value: no other signed cookie can pass as a trusted device.
const COOKIE_VALUE_PREFIX = "trust-device:";

/**
 * Trusted device (docs/decisions/: 30 days): a signed cookie naming the user and a server-side row, so
 * the trust is bound to that user (another user signing in on the device is still challenged) and
 * can be revoked — disable removes every row of the user.
 */
export async function issueTrustedDevice(auth: AuthContext, jar: CookieJar, userId: ObjectId): Promise<void> {
  const lifetime = auth.options.twoFactor.trustDeviceExpiresIn;
  const now = auth.now();
  const trustId = generateRandomString(32);
  const user = userId.toHexString();
  const expiresAt = new Date(now.getTime() + lifetime * 1000);
  if (!(await insertRow(auth.collections, trustIdentifier(user, trustId), user, expiresAt, now))) return;
  const value = signValue(`${COOKIE_VALUE_PREFIX}${user}.${trustId}`, auth.options.secret);
  jar.set(twoFactorCookieNames(auth).trustDevice, value, { maxAge: lifetime });
}

/** True when the request carries this user's live trusted-device cookie (one read when it does). */
export async function isTrustedDevice(auth: AuthContext, jar: CookieJar, userId: ObjectId): Promise<boolean> {
  const signed = jar.get(twoFactorCookieNames(auth).trustDevice);
  const value = signed ? unsignValue(signed, auth.options.secret) : null;
  if (!value?.startsWith(COOKIE_VALUE_PREFIX)) return false;
  const trust = parseTrustValue(value.slice(COOKIE_VALUE_PREFIX.length));
  if (!trust || trust.userId !== userId.toHexString()) return false;
  const row = await findRow(auth.collections, trustIdentifier(trust.userId, trust.trustId));
  return row !== null && row.expiresAt > auth.now();
}

/** Clears the caller's trusted-device cookie (its row is deleted with the user's others). */
export function forgetTrustedDeviceCookie(auth: AuthContext, jar: CookieJar): void {
  if (jar.get(twoFactorCookieNames(auth).trustDevice) !== undefined) {
    jar.delete(twoFactorCookieNames(auth).trustDevice);
  }
}
