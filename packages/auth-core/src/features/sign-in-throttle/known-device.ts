import type { AuthContext } from "../../context.ts";
import { generateRandomString, signValue, unsignValue } from "../../crypto/index.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";

// Domain separation inside the signed value: no other signed cookie can pass as a known device.
const COOKIE_VALUE_PREFIX = "known-device:";
/** Refreshed at each sign-in on the device, so a device in use stays known. */
const KNOWN_DEVICE_SECONDS = 180 * 86_400;
const DEVICE_ID = /^([0-9a-f]{24})\.([A-Za-z0-9]{20})$/;

function knownDeviceCookieName(auth: AuthContext): string {
  return `${auth.secureCookies ? "__Secure-" : ""}${auth.options.advanced.cookiePrefix}.known_device`;
}

/**
 * The id of the device, when the request carries this user's signed known-device cookie: a device
 * that has signed in as the user with the password before. Its attempts have a lane of their own
 * (service.ts), so guesses from elsewhere never lock the owner's own device out (the device-cookie
 * defence of the OWASP Authentication Cheat Sheet). Null for anyone else. No database read: the
 * cookie only chooses a lane, it grants nothing, and a stolen one buys the same 100 attempts.
 */
export function readKnownDevice(auth: AuthContext, jar: CookieJar, userId: ObjectId | null): string | null {
  if (!userId) return null;
  const signed = jar.get(knownDeviceCookieName(auth));
  const value = signed ? unsignValue(signed, auth.options.secret) : null;
  if (!value?.startsWith(COOKIE_VALUE_PREFIX)) return null;
  const match = DEVICE_ID.exec(value.slice(COOKIE_VALUE_PREFIX.length));
  return match && match[1] === userId.toHexString() ? match[2]! : null;
}

/** After a proven password: marks (or keeps marking) this device as one the user signs in on. */
export function rememberKnownDevice(
  auth: AuthContext,
  jar: CookieJar,
  userId: ObjectId,
  deviceId: string | null,
): void {
  const id = deviceId ?? generateRandomString(20);
  const value = signValue(`${COOKIE_VALUE_PREFIX}${userId.toHexString()}.${id}`, auth.options.secret);
  jar.set(knownDeviceCookieName(auth), value, { maxAge: KNOWN_DEVICE_SECONDS });
}
