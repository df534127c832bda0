/**
 * The offer to add a passkey after a password sign-in (issue: "upgrade after a password sign-in").
 * Two cookies of this browser, no user setting: whether a device can hold a passkey is the device's
 * matter, so a "Not now" here does not silence the offer on the person's other devices.
 * - `passkey-offer`: set by a password sign-in of an account with no passkey, for 10 minutes; the
 *   page ends it once it has shown the offer (shown once).
 * - `passkey-offer-dismissed`: "Not now", for 30 days.
 */
import { appCookieAttributes, readCookie } from "./cookies.server";

const OFFER = "tessera-demo.passkey-offer";
const DISMISSED = "tessera-demo.passkey-offer-dismissed";
const OFFER_SECONDS = 10 * 60;
const DISMISSED_SECONDS = 30 * 24 * 60 * 60;

/** The Set-Cookie of a new offer (after a password sign-in); none while "Not now" holds. */
export function offerPasskeyCookie(request: Request): Headers {
  const headers = new Headers();
  if (readCookie(request, DISMISSED) === null)
    headers.append("Set-Cookie", `${OFFER}=1; ${appCookieAttributes("/", OFFER_SECONDS)}`);
  return headers;
}

/** The offer has been shown: not again until the next password sign-in. */
export function endPasskeyOfferCookie(): Headers {
  return new Headers({ "Set-Cookie": `${OFFER}=; ${appCookieAttributes("/", 0)}` });
}

/** "Not now": no offer on this browser for 30 days. */
export function dismissPasskeyOfferCookies(): Headers {
  const headers = endPasskeyOfferCookie();
  headers.append("Set-Cookie", `${DISMISSED}=1; ${appCookieAttributes("/", DISMISSED_SECONDS)}`);
  return headers;
}

/** Whether the page should offer a passkey (the browser then checks that it can make one). */
export function isPasskeyOffered(request: Request): boolean {
  return readCookie(request, OFFER) !== null && readCookie(request, DISMISSED) === null;
}
