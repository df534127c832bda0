import type { AuthContext } from "../../context.ts";
import type { UserDoc } from "../../db/documents.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";

/*
 * A ban is state of the user row: sessions, API keys and every sign-in path check it here; the
 * admin feature sets and lifts it (features/admin/ban-service.ts).
 */

/** A ban holds while `banned` is set and its expiry (if any) is still ahead. */
export function isBanActive(user: Pick<UserDoc, "banned" | "banExpires">, now: Date): boolean {
  if (user.banned !== true) return false;
  return !user.banExpires || user.banExpires.getTime() > now.getTime();
}

/**
 * A ban whose expiry has passed: lifted at the next sign-in (docs/decisions/0013-admin.md "Admin").
 * @internal Exported for the admin rules' test (features/admin/rules.test.ts).
 */
export function isBanExpired(user: Pick<UserDoc, "banned" | "banExpires">, now: Date): boolean {
  return user.banned === true && !!user.banExpires && user.banExpires.getTime() <= now.getTime();
}

/** The ban fields that lift a ban (unban-user, or an expired ban at sign-in). */
export const LIFTED_BAN = { banned: false, banReason: null, banExpires: null } as const;

/**
 * THE ban check of every session-minting sign-in path (email, verify-email auto sign-in, social,
 * two-factor completion). Call it once the credentials are proven and before the session is
 * created, so the ban is never revealed to someone without the password.
 * - not banned: returns the user as given (no database command);
 * - banned, ban expired: the ban no longer holds (docs/decisions/0013-admin.md "an expired ban lifts itself at the
 *   next sign-in"): returns the user as if lifted, WITHOUT writing the lift. A write here would
 *   carry this request's stale copy over a ban an admin set meanwhile; the
 *   stored expired ban is harmless, since isBanActive ignores it everywhere, and the next ban-user
 *   or unban-user overwrites it;
 * - banned: refused BANNED_USER, which the endpoint answers with bannedUserError
 *   (endpoints/guards.ts: 403, or `admin.bannedUserMessage`).
 */
export function checkUserNotBanned(auth: AuthContext, user: UserDoc): Outcome<UserDoc, "BANNED_USER"> {
  const now = auth.now();
  if (isBanActive(user, now)) return refused("BANNED_USER");
  return granted(isBanExpired(user, now) ? { ...user, ...LIFTED_BAN } : user);
}
