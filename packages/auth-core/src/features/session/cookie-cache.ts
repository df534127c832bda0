import { createHmac, timingSafeEqual } from "node:crypto";
import { publicUserModel, sessionModel } from "../../contracts/models.ts";
import { signValue } from "../../crypto/index.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { fieldsByStoredName, restoreModelDoc } from "../../db/model.ts";
import { type Session, toSession, toUser, type User } from "./types.ts";

/**
 * The signed cookie cache: the session and user, serialised, with an
 * expiry and an HMAC. Refused when forged, when expired, when its session has expired or when it
 * belongs to another token than the session cookie. Not set when it would exceed 4093 characters.
 *
 * The 4093 are counted over `name=value`, not the value alone: browsers drop a cookie whose name
 * plus value pass 4096 bytes (RFC 6265 §6.1 minimum), and a dropped Set-Cookie would leave the
 * previous cache in place.
 *
 * Format: `base64url(meta JSON + "\n" + API JSON) "." HMAC`. The API JSON is get-session's answer,
 * `{"session":…,"user":…}` as `toSession`/`toUser` shape it, so a cache hit sends it as signed,
 * without rebuilding documents or serialising them again (most of a cached get-session's cost).
 * JSON.stringify never writes a raw line feed, so the first "\n" splits. The meta line is
 * `[expiry ms, dontRemember 0|1, other session fields?, other user fields?]`: the document fields
 * the API JSON does not carry, so the documents can be rebuilt — on demand — for endpoints that
 * read `ctx.session`. It is that terse because every byte of it is a byte less for user data
 * under the 4093 limit. For the same reason two checks are folded rather than stored:
 * - the HMAC covers the signed session cookie (`token.signature`) the cache was issued with, so a
 *   cache only verifies next to that exact cookie (token binding). The signed cookie itself is not
 *   in the cache value, so a cache alone can never stand in for it; and since the server issues a
 *   cache only for a genuine session cookie, a cache that verifies proves that cookie genuine too:
 *   a hit costs one HMAC, not two (HMAC setup is most of a cached get-session's CPU);
 * - the expiry is the earlier of the cache's and the session's.
 * @internal Exported for its unit test (cookie-cache.test.ts).
 */
export const COOKIE_CACHE_MAX_LENGTH = 4093;

/** [expiry (ms), dontRemember (1/0), session fields, user fields]; empty trailing objects are left out. */
type CacheMeta = [number, number, Record<string, unknown>?, Record<string, unknown>?];

/** The session document's fields that the API JSON may carry (contracts/models.ts sessionModel). */
const SESSION_FIELDS = fieldsByStoredName(sessionModel);
/** The user document's fields that the API JSON may carry (contracts/models.ts publicUserModel). */
const USER_FIELDS = fieldsByStoredName(publicUserModel);

/** The length prefix keeps the split between cookie and body unambiguous in the MAC input. */
function mac(body: string, signedSessionCookie: string, secret: string): string {
  const input = `cookie-cache:${signedSessionCookie.length}:${signedSessionCookie}:${body}`;
  return createHmac("sha256", secret).update(input).digest("base64url");
}

/** Returns null when `cookieName=value` would exceed COOKIE_CACHE_MAX_LENGTH characters. */
export function encodeCookieCache(
  session: SessionDoc,
  user: UserDoc,
  expiresAt: Date,
  secret: string,
  cookieName: string,
): string | null {
  const meta: CacheMeta = [
    Math.min(expiresAt.getTime(), session.expiresAt.getTime()),
    session.dontRemember ? 1 : 0,
  ];
  const api = { session: toSession(session), user: toUser(user) };
  // What the API JSON leaves out travels in the meta line: fields outside the model, and an optional
  // field the answer omits (activeTeamId null, twoFactorEnabled false), so the rebuilt document is
  // the one encoded.
  const sessionFields = otherFields(session, (name) => {
    const field = SESSION_FIELDS.get(name);
    return name === "dontRemember" || (field !== undefined && field.key in api.session);
  });
  const userFields = otherFields(user, (name) => {
    const field = USER_FIELDS.get(name);
    return field !== undefined && field.key in api.user;
  });
  if (sessionFields || userFields) meta.push(sessionFields ?? {});
  if (userFields) meta.push(userFields);
  const json = JSON.stringify(api);
  const body = Buffer.from(`${JSON.stringify(meta)}\n${json}`).toString("base64url");
  const value = `${body}.${mac(body, signValue(session.token, secret), secret)}`;
  const length = cookieName.length + 1 + encodeURIComponent(value).length;
  return length > COOKIE_CACHE_MAX_LENGTH ? null : value;
}

function otherFields(doc: object, isCarried: (name: string) => boolean): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(doc)) {
    if (value === undefined || isCarried(key)) continue;
    rest ??= {};
    rest[key] = value;
  }
  return rest;
}

/** A verified cache entry: get-session's JSON as signed, and the documents, rebuilt when asked. */
export interface CookieCacheHit {
  /** `{"session":…,"user":…}` exactly as get-session answers it. */
  json: string;
  documents(): { session: SessionDoc; user: UserDoc };
}

/**
 * Verifies the HMAC — bound to `signedSessionCookie`, the session cookie's value as the client sent
 * it — and the expiry; null when either fails.
 */
export function readCookieCache(
  value: string,
  secret: string,
  signedSessionCookie: string,
  now: Date,
): CookieCacheHit | null {
  const dot = value.lastIndexOf(".");
  if (dot <= 0 || value.length > COOKIE_CACHE_MAX_LENGTH) return null;
  const body = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(body, signedSessionCookie, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const text = Buffer.from(body, "base64url").toString("utf8");
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  let meta: CacheMeta;
  try {
    meta = JSON.parse(text.slice(0, newline)) as CacheMeta;
  } catch {
    return null;
  }
  // Not `<=`: a missing or non-numeric expiry must refuse, and NaN compares false either way.
  if (!(meta[0] > now.getTime())) return null;
  const json = text.slice(newline + 1);
  let documents: { session: SessionDoc; user: UserDoc } | null = null;
  return {
    json,
    documents: () => {
      documents ??= rebuildDocuments(JSON.parse(json) as { session: Session; user: User }, meta);
      return documents;
    },
  };
}

/**
 * The documents of a valid cache for session `token` (whose signed cookie is recomputed), else null.
 * @internal Exported for the cookie-cache tests (cookie-cache*.test.ts).
 */
export function decodeCookieCache(
  value: string,
  secret: string,
  token: string,
  now: Date,
): { session: SessionDoc; user: UserDoc } | null {
  return readCookieCache(value, secret, signValue(token, secret), now)?.documents() ?? null;
}

/** The inverse of toSession/toUser for the carried fields, plus the meta line's other fields. */
function rebuildDocuments(api: { session: Session; user: User }, meta: CacheMeta) {
  const { session, user } = api;
  const sessionDoc = {
    ...meta[2],
    dontRemember: meta[1] === 1,
    ...restoreModelDoc(sessionModel, session),
  } as SessionDoc;
  const userDoc = { ...meta[3], ...restoreModelDoc(publicUserModel, user) } as UserDoc;
  return { session: sessionDoc, user: userDoc };
}
