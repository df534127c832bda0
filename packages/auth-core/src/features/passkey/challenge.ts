import type { AuthContext } from "../../context.ts";
import { generateRandomString, signValue, unsignValue } from "../../crypto/index.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { type Ceremony, CHALLENGE_SECONDS, parseCeremony, serializeCeremony } from "./rules.ts";
import { consumeRow, insertRow } from "./store.ts";

/**
 * A ceremony's challenge is stored server-side (a `verifications` row, 5 minutes) and the browser
 * that asked gets a signed HttpOnly cookie naming it (docs/passkeys.md "Challenges"): an answer from
 * another browser, a second answer, or a late one finds no challenge.
 */

// Domain separation inside the signed value: no other signed cookie can pass as a challenge's.
const COOKIE_VALUE_PREFIX = "passkey:";
const ROW_PREFIX = "passkey-challenge:";
const CHALLENGE_ID = /^[A-Za-z0-9]{32}$/;

function challengeCookieName(auth: AuthContext): string {
  return `${auth.secureCookies ? "__Secure-" : ""}${auth.options.advanced.cookiePrefix}.passkey`;
}

/** Stores the ceremony and sets its cookie (a new ceremony replaces the browser's earlier one). */
export async function issueChallenge(auth: AuthContext, jar: CookieJar, ceremony: Ceremony): Promise<void> {
  const id = generateRandomString(32);
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + CHALLENGE_SECONDS * 1000);
  const stored = await insertRow(
    auth.collections,
    `${ROW_PREFIX}${id}`,
    serializeCeremony(ceremony),
    expiresAt,
    now,
  );
  // A 190-bit id collided: not a client error (a 500).
  if (!stored) throw new Error("passkey challenge id collided");
  jar.set(challengeCookieName(auth), signValue(`${COOKIE_VALUE_PREFIX}${id}`, auth.options.secret), {
    maxAge: CHALLENGE_SECONDS,
  });
}

/**
 * Consumes the live challenge the browser's cookie names — of any number of concurrent answers
 * exactly one gets it (the row's delete count) — and clears the cookie. Null when there is none, it
 * expired, was used, or is of another kind (endpoints: CHALLENGE_NOT_FOUND).
 */
export async function takeChallenge<K extends Ceremony["kind"]>(
  auth: AuthContext,
  jar: CookieJar,
  kinds: readonly K[],
): Promise<Extract<Ceremony, { kind: K }> | null> {
  const name = challengeCookieName(auth);
  const signed = jar.get(name);
  const value = signed ? unsignValue(signed, auth.options.secret) : null;
  const id = value?.startsWith(COOKIE_VALUE_PREFIX) ? value.slice(COOKIE_VALUE_PREFIX.length) : null;
  if (!id || !CHALLENGE_ID.test(id)) return null;
  jar.delete(name);
  const row = await consumeRow(auth.collections, `${ROW_PREFIX}${id}`, auth.now());
  const ceremony = row ? parseCeremony(row.value) : null;
  if (!ceremony || !(kinds as readonly string[]).includes(ceremony.kind)) return null;
  return ceremony as Extract<Ceremony, { kind: K }>;
}
