import type { AuthContext } from "../../context.ts";
import { generateRandomString, signValue, unsignValue } from "../../crypto/index.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { type Ceremony, CHALLENGE_SECONDS, parseCeremony, serializeCeremony } from "./rules.ts";
import { consumeRow, insertRow } from "./store.ts";

/**
 * A ceremony's challenge lives 5 minutes, is used once, and belongs to the browser that asked: a
 * signed HttpOnly cookie names it (docs/passkeys.md "Security"), so an answer from another browser,
 * a second answer, or a late one finds no challenge.
 *
 * A registration's challenge is a `verifications` row, as it holds who registers (and a sign-up's
 * address), which the browser must not hold. A sign-in's holds nothing but the challenge: its cookie
 * carries it with its expiry, and only an answer writes — the row that claims it once — so autofill
 * asking for options on every page view costs no database write.
 */

// Domain separation inside the signed value: no other signed cookie can pass as a challenge's.
const COOKIE_VALUE_PREFIX = "passkey:";
const SIGN_IN_VALUE_PREFIX = "passkey-sign-in:";
const ROW_PREFIX = "passkey-challenge:";
const CLAIM_PREFIX = "passkey-sign-in-answered:";
const CHALLENGE_ID = /^[A-Za-z0-9]{32}$/;
const SIGN_IN_VALUE = /^([A-Za-z0-9_-]{16,128}):(\d{1,15})$/;

function challengeCookieName(auth: AuthContext): string {
  return `${auth.secureCookies ? "__Secure-" : ""}${auth.options.advanced.cookiePrefix}.passkey`;
}

function setChallengeCookie(auth: AuthContext, jar: CookieJar, value: string): void {
  jar.set(challengeCookieName(auth), signValue(value, auth.options.secret), { maxAge: CHALLENGE_SECONDS });
}

/** Issues the ceremony's challenge and sets its cookie (a new ceremony replaces the browser's earlier one). */
export async function issueChallenge(auth: AuthContext, jar: CookieJar, ceremony: Ceremony): Promise<void> {
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + CHALLENGE_SECONDS * 1000);
  if (ceremony.kind === "authentication") {
    setChallengeCookie(auth, jar, `${SIGN_IN_VALUE_PREFIX}${ceremony.challenge}:${expiresAt.getTime()}`);
    return;
  }
  const id = generateRandomString(32);
  const stored = await insertRow(
    auth.collections,
    `${ROW_PREFIX}${id}`,
    serializeCeremony(ceremony),
    expiresAt,
    now,
  );
  // A 190-bit id collided: not a client error (a 500).
  if (!stored) throw new Error("passkey challenge id collided");
  setChallengeCookie(auth, jar, `${COOKIE_VALUE_PREFIX}${id}`);
}

/**
 * Takes the live challenge the browser's cookie names — of any number of concurrent answers exactly
 * one gets it (a registration row's delete count; a sign-in challenge's claim row, kept until the
 * challenge expires, by the unique identifier) — and clears the cookie. Null when there is none, it
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
  if (!value) return null;
  jar.delete(name);
  const ceremony = value.startsWith(SIGN_IN_VALUE_PREFIX)
    ? await claimSignInChallenge(auth, value.slice(SIGN_IN_VALUE_PREFIX.length))
    : await consumeChallengeRow(auth, value);
  if (!ceremony || !(kinds as readonly string[]).includes(ceremony.kind)) return null;
  return ceremony as Extract<Ceremony, { kind: K }>;
}

async function consumeChallengeRow(auth: AuthContext, value: string): Promise<Ceremony | null> {
  const id = value.startsWith(COOKIE_VALUE_PREFIX) ? value.slice(COOKIE_VALUE_PREFIX.length) : null;
  if (!id || !CHALLENGE_ID.test(id)) return null;
  const row = await consumeRow(auth.collections, `${ROW_PREFIX}${id}`, auth.now());
  return row ? parseCeremony(row.value) : null;
}

/** The sign-in challenge the cookie carries, unless it expired or an earlier answer claimed it. */
async function claimSignInChallenge(auth: AuthContext, carried: string): Promise<Ceremony | null> {
  const match = SIGN_IN_VALUE.exec(carried);
  if (!match) return null;
  const [, challenge, expires] = match as unknown as [string, string, string];
  const now = auth.now();
  const expiresAt = new Date(Number(expires));
  if (expiresAt <= now) return null;
  const claimed = await insertRow(auth.collections, `${CLAIM_PREFIX}${challenge}`, "", expiresAt, now);
  return claimed ? { kind: "authentication", challenge } : null;
}
