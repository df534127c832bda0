import type { AuthContext } from "../../context.ts";
import { generateSessionToken, signValue, unsignValue } from "../../crypto/index.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId, type ObjectId as ObjectIdType } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { applyAfterHook, applyBeforeHook } from "../hooks.ts";
import { findUserById, isBanActive } from "../users/index.ts";
import { type CookieCacheHit, encodeCookieCache, readCookieCache } from "./cookie-cache.ts";
import { isSessionExpired, sessionExpiry, shouldRefreshSession } from "./rules.ts";
import {
  type ActiveField,
  clearActiveOrganization,
  clearActiveTeam,
  clearSessionActive,
  findSessionByToken,
  insertSession,
  listSessionsWithActive,
  updateSessionExpiry,
} from "./store.ts";
import type { SessionWithUser } from "./types.ts";

export interface NewSessionInput {
  userId: ObjectIdType;
  dontRemember: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  /** An admin's impersonation session (features/admin): the admin's id, and its own fixed expiry. */
  impersonation?: { impersonatedBy: ObjectIdType; expiresAt: Date };
}

/** Inserts a session (through the session create hooks). Throws FAILED_TO_CREATE_SESSION when refused. */
export async function createSession(auth: AuthContext, input: NewSessionInput): Promise<SessionDoc> {
  const now = auth.now();
  const draft: SessionDoc = {
    _id: new ObjectId(),
    userId: input.userId,
    token: generateSessionToken(),
    expiresAt: input.impersonation?.expiresAt ?? sessionExpiry(now, input.dontRemember, auth.options.session),
    createdAt: now,
    updatedAt: now,
    ipAddress: input.ipAddress,
    userAgent: input.userAgent ? input.userAgent.slice(0, 512) : null,
    activeOrganizationId: null,
    dontRemember: input.dontRemember,
    ...(input.impersonation ? { impersonatedBy: input.impersonation.impersonatedBy } : {}),
  };
  const hooks = auth.options.hooks?.session?.create;
  const doc = await applyBeforeHook(hooks, draft);
  if (!doc) throw new AuthError("FAILED_TO_CREATE_SESSION");
  try {
    await insertSession(auth.collections, doc);
  } catch (error) {
    throw new AuthError("FAILED_TO_CREATE_SESSION", { cause: error });
  }
  await applyAfterHook(hooks, doc);
  return doc;
}

function maxAgeSeconds(session: SessionDoc, now: Date): number {
  return Math.max(0, Math.floor((session.expiresAt.getTime() - now.getTime()) / 1000));
}

/** Sets the signed session cookie (no Max-Age for rememberMe false: a browser-session cookie). */
export function setSessionCookies(
  auth: AuthContext,
  jar: CookieJar,
  session: SessionDoc,
  user: UserDoc,
): void {
  const now = auth.now();
  const maxAge = session.dontRemember ? undefined : maxAgeSeconds(session, now);
  jar.set(auth.cookies.sessionToken, signValue(session.token, auth.options.secret), { maxAge });
  if (session.dontRemember) jar.set(auth.cookies.dontRemember, signValue("true", auth.options.secret));
  else if (jar.get(auth.cookies.dontRemember) !== undefined) jar.delete(auth.cookies.dontRemember);
  setCookieCache(auth, jar, session, user);
}

export function setCookieCache(auth: AuthContext, jar: CookieJar, session: SessionDoc, user: UserDoc): void {
  const cache = auth.options.session.cookieCache;
  if (!cache.enabled) return;
  // An API-key caller (features/api-key/session-bridge.ts, token "") gets no cookie of any kind.
  if (session.token === "") return;
  const now = auth.now();
  const expiresAt = new Date(Math.min(now.getTime() + cache.maxAge * 1000, session.expiresAt.getTime()));
  const value = encodeCookieCache(session, user, expiresAt, auth.options.secret, auth.cookies.sessionData);
  if (value === null) {
    // Too large for one cookie (docs/decisions/, 4093 characters): simply not cached.
    if (jar.get(auth.cookies.sessionData) !== undefined) jar.delete(auth.cookies.sessionData);
    return;
  }
  jar.set(auth.cookies.sessionData, value, { maxAge: session.dontRemember ? undefined : cache.maxAge });
}

export function clearSessionCookies(auth: AuthContext, jar: CookieJar): void {
  jar.delete(auth.cookies.sessionToken);
  // A parked session (an admin's, set aside while impersonating) is useless without the session
  // cookie it sits behind: it goes with it.
  if (jar.get(parkedSessionCookieName(auth)) !== undefined) jar.delete(parkedSessionCookieName(auth));
  if (jar.get(auth.cookies.sessionData) !== undefined || auth.options.session.cookieCache.enabled) {
    jar.delete(auth.cookies.sessionData);
  }
  if (jar.get(auth.cookies.dontRemember) !== undefined) jar.delete(auth.cookies.dontRemember);
}

/**
 * `tessera.admin_session` (with the session cookie's prefixes): a session set aside while the
 * browser holds another one — an admin's own session while they impersonate (features/admin).
 */
function parkedSessionCookieName(auth: AuthContext): string {
  return auth.cookies.sessionToken.replace(/session_token$/, "admin_session");
}

/**
 * Domain separation inside the signed value (docs/security.md "Impersonation"): a parked session
 * is signed as "parked-session:<token>", so its cookie value never passes as a session cookie
 * (which would read the token "parked-session:…" and find nothing), nor a session cookie as a
 * parked one.
 */
const PARKED_VALUE_PREFIX = "parked-session:";

/** Sets a session aside in its own signed, httpOnly cookie for `maxAge` seconds. */
export function parkSession(auth: AuthContext, jar: CookieJar, token: string, maxAge: number): void {
  jar.set(parkedSessionCookieName(auth), signValue(`${PARKED_VALUE_PREFIX}${token}`, auth.options.secret), {
    maxAge,
  });
}

/**
 * Takes the parked session's token out of the jar: the cookie is cleared when present, and the
 * token returned only when the value is a parked session signed by this server (null otherwise).
 */
export function takeParkedSessionToken(auth: AuthContext, jar: CookieJar): string | null {
  const name = parkedSessionCookieName(auth);
  const signed = jar.get(name);
  if (signed === undefined) return null;
  jar.delete(name);
  const value = unsignValue(signed, auth.options.secret);
  if (!value?.startsWith(PARKED_VALUE_PREFIX)) return null;
  return value.slice(PARKED_VALUE_PREFIX.length) || null;
}

/** The session token from the signed cookie, or null when absent or forged. */
export function readSessionToken(auth: AuthContext, jar: CookieJar): string | null {
  const signed = jar.get(auth.cookies.sessionToken);
  if (!signed) return null;
  return unsignValue(signed, auth.options.secret);
}

import type { AfterCollections } from "../../db/collections.ts";
import type { ReadSessionOptions } from "../../http/caller.ts";
import * as stored from "./store.ts";

export type { ReadSessionOptions };

/**
 * Resolves the caller's session: cookie cache first (0 database commands) when allowed, then the
 * database (session + user: 2 commands). Expired sessions are deleted and cookies cleared; a
 * session read after its update age is refreshed and its cookie re-set.
 */
export async function readSession(
  auth: AuthContext,
  jar: CookieJar,
  options: ReadSessionOptions,
): Promise<SessionWithUser | null> {
  const useCache = options.useCookieCache && auth.options.session.cookieCache.enabled;
  return (useCache ? readCachedSession(auth, jar) : null) ?? readStoredSession(auth, jar, options, useCache);
}

/**
 * The session the signed cookie cache vouches for, or null (no cache, cache off, or a cache this
 * request cannot use: expired, forged, issued with another session cookie); changes nothing, so a
 * null leaves the request to readSession as it came. Synchronous: the engine answers a
 * cookie-cached get-session from it without a promise (http/run-endpoint.ts answerFromCookieCache).
 */
export function readCachedSession(auth: AuthContext, jar: CookieJar): SessionWithUser | null {
  if (!auth.options.session.cookieCache.enabled) return null;
  const cached = jar.get(auth.cookies.sessionData);
  const signed = jar.get(auth.cookies.sessionToken);
  if (!cached || !signed) return null;
  // The cache's HMAC covers this exact signed cookie, so a hit also proves the cookie genuine
  // (cookie-cache.ts): one HMAC instead of two.
  const hit = readCookieCache(cached, auth.options.secret, signed, auth.now());
  return hit ? new CachedSession(hit) : null;
}

/** readSession past the cookie cache: the session and user rows (a refused cache is deleted). */
async function readStoredSession(
  auth: AuthContext,
  jar: CookieJar,
  options: ReadSessionOptions,
  useCache: boolean,
): Promise<SessionWithUser | null> {
  const now = auth.now();
  const cached = useCache ? jar.get(auth.cookies.sessionData) : undefined;
  const signed = jar.get(auth.cookies.sessionToken);
  const token = readSessionToken(auth, jar);
  if (!token) {
    if (signed !== undefined) clearSessionCookies(auth, jar);
    return null;
  }
  // A cache that was sent but refused is deleted (or replaced once the database answers).
  if (cached) jar.delete(auth.cookies.sessionData);
  const session = await findSessionByToken(auth.collections, token);
  if (!session) {
    clearSessionCookies(auth, jar);
    return null;
  }
  if (isSessionExpired(session.expiresAt, now)) {
    await stored.deleteSessionByToken(auth.collections, token);
    clearSessionCookies(auth, jar);
    return null;
  }
  const user = await findUserById(auth.collections, session.userId);
  if (!user) {
    clearSessionCookies(auth, jar);
    return null;
  }
  if (isBanActive(user, now)) {
    // A ban deletes the user's sessions; one minted by a sign-in racing the ban dies here
    // (docs/security.md). With the cookie cache on, a cached copy lives up to its maxAge.
    await stored.deleteSessionByToken(auth.collections, token);
    clearSessionCookies(auth, jar);
    return null;
  }
  if (session.impersonatedBy && !(await isImpersonatorActive(auth, session.impersonatedBy, now))) {
    // Ending an admin (deletion, ban) ends the impersonations they started; one started while that
    // ran carries the impersonated user's id and escapes the sweep: it dies here.
    await stored.deleteSessionByToken(auth.collections, token);
    clearSessionCookies(auth, jar);
    return null;
  }
  const dontRemember = session.dontRemember || jar.get(auth.cookies.dontRemember) !== undefined;
  if (shouldRefreshSession({ ...session, dontRemember }, now, auth.options.session, options.disableRefresh)) {
    if (!(await extendSession(auth, session, now))) {
      // Revoked between the read and the refresh: the request is not served on it.
      clearSessionCookies(auth, jar);
      return null;
    }
    setSessionCookies(auth, jar, session, user);
  } else if (useCache) {
    setCookieCache(auth, jar, session, user);
  }
  return { session, user, fromCache: false };
}

/** The admin behind an impersonation session still exists and is not banned. */
async function isImpersonatorActive(auth: AuthContext, adminId: ObjectIdType, now: Date): Promise<boolean> {
  const admin = await findUserById(auth.collections, adminId);
  return admin !== null && !isBanActive(admin, now);
}

/**
 * A cache hit whose documents are rebuilt only when an endpoint reads them: get-session sends the
 * signed JSON as it is (`cachedSessionJson`) and never needs them. A class with getters on its
 * prototype: an object literal with accessors per request costs more than the rest of the hit.
 */
class CachedSession implements SessionWithUser {
  readonly fromCache = true;
  readonly #hit: CookieCacheHit;

  constructor(hit: CookieCacheHit) {
    this.#hit = hit;
  }

  get session(): SessionDoc {
    return this.#hit.documents().session;
  }

  get user(): UserDoc {
    return this.#hit.documents().user;
  }

  get json(): string {
    return this.#hit.json;
  }
}

/**
 * For a session `readSession` answered from the cookie cache: `{"session":…,"user":…}` exactly as
 * get-session would serialise `toSession`/`toUser` of it (the cache stores that text, signed).
 */
export function cachedSessionJson(found: SessionWithUser): string | undefined {
  return found instanceof CachedSession ? found.json : undefined;
}

/** The sliding refresh: moves the expiry forward (through the session update hooks). */
/** False when the session was revoked meanwhile (the update found no row). */
async function extendSession(auth: AuthContext, session: SessionDoc, now: Date): Promise<boolean> {
  const hooks = auth.options.hooks?.session?.update;
  const change = await applyBeforeHook<Partial<SessionDoc>>(hooks, {
    expiresAt: sessionExpiry(now, false, auth.options.session),
  });
  if (!change?.expiresAt) return true; // a hook refused: the session keeps its expiry
  session.expiresAt = change.expiresAt;
  // A session revoked meanwhile was not updated: its after hook would report a write that did not happen.
  if (!(await updateSessionExpiry(auth.collections, session._id, session.expiresAt))) return false;
  await applyAfterHook(hooks, session);
  return true;
}

/**
 * docs/decisions/ cascades: an organization left, removed or deleted stops being active on sessions (on one
 * user's when `userId` is given); a team likewise. A required cascade, so no `before` hook is asked
 * (a refusal would leave a session pointing at what is gone); with a session update `after` hook,
 * each session is cleared by its own write and reported once that write found it. The closing bulk
 * write catches a session that made it active after the list was read.
 */
export async function clearActiveOrganizationOfSessions(
  auth: AuthContext,
  organizationId: string,
  userId?: ObjectId,
): Promise<void> {
  await reportClearedSessions(auth, "activeOrganizationId", organizationId, userId);
  await clearActiveOrganization(auth.collections, organizationId, userId);
}

/** The team form of clearActiveOrganizationOfSessions (a removed team, or a member removed from it). */
export async function clearActiveTeamOfSessions(
  auth: AuthContext,
  teamId: string,
  userId?: ObjectId,
): Promise<void> {
  await reportClearedSessions(auth, "activeTeamId", teamId, userId);
  await clearActiveTeam(auth.collections, teamId, userId);
}

async function reportClearedSessions(
  auth: AuthContext,
  field: ActiveField,
  value: string,
  userId: ObjectId | undefined,
): Promise<void> {
  const after = auth.options.hooks?.session?.update?.after;
  if (!after) return;
  for await (const session of listSessionsWithActive(auth.collections, field, value, userId)) {
    if (!(await clearSessionActive(auth.collections, session._id, field, value))) continue;
    const cleared =
      field === "activeOrganizationId"
        ? { activeOrganizationId: null, activeTeamId: null }
        : { activeTeamId: null };
    await after({ ...session, ...cleared });
  }
}

/*
 * Reads and writes the endpoints make as they are: the store's, with this instance's collections
 * (endpoints call services, never the store).
 */

export function deleteSessionByToken(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteSessionByToken>
): ReturnType<typeof stored.deleteSessionByToken> {
  return stored.deleteSessionByToken(auth.collections, ...args);
}

export function deleteUserSessionByToken(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteUserSessionByToken>
): ReturnType<typeof stored.deleteUserSessionByToken> {
  return stored.deleteUserSessionByToken(auth.collections, ...args);
}

export function listUserSessions(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.listUserSessions>
): ReturnType<typeof stored.listUserSessions> {
  return stored.listUserSessions(auth.collections, ...args);
}
