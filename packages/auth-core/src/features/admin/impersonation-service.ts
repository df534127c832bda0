import type { AuthContext } from "../../context.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import type { SessionWithUser } from "../session/index.ts";
import {
  clearSessionCookies,
  establishSession,
  findSessionByToken,
  isSessionExpired,
  parkSession,
  setSessionCookies,
  takeParkedSessionToken,
} from "../session/index.ts";
import { findUserById } from "../users/index.ts";
import { isBanActive } from "./rules.ts";
import { hasAdminPermission, isAdminUser, isListedAdmin } from "./service.ts";
import { deleteSessionById } from "./store.ts";

/**
 * Refusals of impersonate-user (docs/security.md): impersonation's form of the may-manage rule
 * (service.ts mayManageUser), with impersonate-admins in place of manage-admins. The caller is an
 * admin, not impersonating. Granted: the target.
 */
export function checkImpersonationTarget(
  auth: AuthContext,
  caller: SessionWithUser,
  target: UserDoc,
): Outcome<
  UserDoc,
  "CANNOT_IMPERSONATE_YOURSELF" | "CANNOT_IMPERSONATE_BANNED_USER" | "CANNOT_IMPERSONATE_ADMINS"
> {
  if (target._id.equals(caller.user._id)) return refused("CANNOT_IMPERSONATE_YOURSELF");
  if (isBanActive(target, auth.now())) return refused("CANNOT_IMPERSONATE_BANNED_USER");
  // The listed-admin half of the may-manage rule holds even with allowImpersonatingAdmins.
  if (isListedAdmin(auth, target) && !isListedAdmin(auth, caller.user))
    return refused("CANNOT_IMPERSONATE_ADMINS");
  if (
    isAdminUser(auth, target) &&
    !auth.options.admin.allowImpersonatingAdmins &&
    !hasAdminPermission(auth, caller.user, { user: ["impersonate-admins"] })
  ) {
    return refused("CANNOT_IMPERSONATE_ADMINS");
  }
  return granted(target);
}

/**
 * Mints the impersonation session (1 hour by default, never refreshed, browser-session cookie)
 * through the session pipeline, re-checks the admin, and swaps cookies: the admin's own session row
 * is kept and its token parked in a signed, httpOnly cookie of its own format that lives as long as
 * the impersonation can. No ban check in the pipeline: checkImpersonationTarget refused a banned
 * target with its own answer; no gate: the target's second factor is not the admin's to pass.
 * Refused when the admin lost the right while this request was checking.
 */
export async function startImpersonation(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  target: UserDoc,
  request: { ip: string | null; userAgent: string | null },
): Promise<Outcome<SessionDoc, "RESOURCE_ACCESS_NOT_ALLOWED">> {
  const duration = auth.options.admin.impersonationSessionDuration;
  try {
    const { session } = await establishSession(
      auth,
      { cookies: jar, ip: request.ip, userAgent: request.userAgent },
      target,
      {
        rememberMe: false,
        ban: "not-applicable",
        secondFactor: "not-applicable",
        impersonation: {
          impersonatedBy: caller.user._id,
          expiresAt: new Date(auth.now().getTime() + duration * 1000),
        },
        async beforeCookies(minted) {
          // A demotion, ban or removal of the admin that ran while this request was
          // checking swept the impersonation sessions BEFORE this one existed. Re-read the admin now
          // that it does: one who lost the right keeps nothing, and the cookies are never set.
          if (!(await mayStillImpersonate(auth, caller.user._id))) {
            await deleteSessionById(auth.collections, minted._id);
            throw new ImpersonationRevoked();
          }
          // Its own signed format (session/service.ts parkSession): the parked value is no session cookie.
          parkSession(auth, jar, caller.session.token, duration);
        },
      },
    );
    return granted(session);
  } catch (error) {
    if (error instanceof ImpersonationRevoked) return refused("RESOURCE_ACCESS_NOT_ALLOWED");
    throw error;
  }
}

/** Ends establishSession from beforeCookies (a throw leaves the cookies unset); answered as a refusal. */
class ImpersonationRevoked extends Error {}

export type StopOutcome =
  | { restored: true; session: SessionDoc; user: UserDoc }
  | { restored: false; reason: "already-stopped" | "admin-session-invalid" };

/**
 * Ends an impersonation: deletes its session, then restores the admin's session — only if it is
 * still the impersonating admin's, unexpired, and the admin may still impersonate (not demoted or
 * banned meanwhile, docs/security.md). Otherwise every session cookie is cleared: signed out.
 */
export async function stopImpersonation(
  auth: AuthContext,
  jar: CookieJar,
  current: SessionDoc & { impersonatedBy: NonNullable<SessionDoc["impersonatedBy"]> },
): Promise<StopOutcome> {
  // The delete count decides a race of concurrent stops (one restore, one audit event); a loser
  // leaves the cookies alone, since the winner's answer sets them.
  if (!(await deleteSessionById(auth.collections, current._id))) {
    return { restored: false, reason: "already-stopped" };
  }
  const token = takeParkedSessionToken(auth, jar);
  const restored = token === null ? null : await findAdminSession(auth, token, current.impersonatedBy);
  if (!restored) {
    clearSessionCookies(auth, jar);
    return { restored: false, reason: "admin-session-invalid" };
  }
  setSessionCookies(auth, jar, restored.session, restored.user);
  return { restored: true, ...restored };
}

async function findAdminSession(
  auth: AuthContext,
  token: string,
  adminId: SessionDoc["userId"],
): Promise<{ session: SessionDoc; user: UserDoc } | null> {
  const session = await findSessionByToken(auth.collections, token);
  if (!session?.userId.equals(adminId) || isSessionExpired(session.expiresAt, auth.now())) return null;
  const user = await findUserById(auth.collections, adminId);
  return user && isImpersonatorStill(auth, user) ? { session, user } : null;
}

/** The admin exists, is not banned, and still holds `user: impersonate`. */
function isImpersonatorStill(auth: AuthContext, user: UserDoc): boolean {
  return !isBanActive(user, auth.now()) && hasAdminPermission(auth, user, { user: ["impersonate"] });
}

async function mayStillImpersonate(auth: AuthContext, adminId: UserDoc["_id"]): Promise<boolean> {
  const user = await findUserById(auth.collections, adminId);
  return user !== null && isImpersonatorStill(auth, user);
}
