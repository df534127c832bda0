import type { AuthContext } from "../../context.ts";
import type { UserDoc } from "../../db/documents.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { deleteAllSessionsOfUser } from "../session/store.ts";
import { updateUser } from "../users/service.ts";
import { banExpiry, isBanActive, isBanExpired, LIFTED_BAN } from "./rules.ts";

/**
 * THE ban check of every session-minting sign-in path (email, verify-email auto sign-in, social,
 * two-factor completion). The session pipeline runs it (features/session establishSession, ban
 * "check"; createAuth hands it over) once the credentials are proven and before the session is
 * created, so the ban is never revealed to someone without the password.
 * - not banned: returns the user as given (no database command);
 * - banned, ban expired: the ban no longer holds (docs/decisions.md "an expired ban lifts itself at the
 *   next sign-in"): returns the user as if lifted, WITHOUT writing the lift. A write here would
 *   carry this request's stale copy over a ban an admin set meanwhile (review finding 3); the
 *   stored expired ban is harmless, since isBanActive ignores it everywhere, and the next ban-user
 *   or unban-user overwrites it;
 * - banned: throws AuthError BANNED_USER (403, or `admin.bannedUserMessage`).
 */
export async function assertUserNotBanned(auth: AuthContext, user: UserDoc): Promise<UserDoc> {
  const now = auth.now();
  if (isBanActive(user, now)) throw bannedUserError(auth);
  return isBanExpired(user, now) ? { ...user, ...LIFTED_BAN } : user;
}

export function bannedUserError(auth: AuthContext): AuthError {
  const message = auth.options.admin.bannedUserMessage;
  return new AuthError("BANNED_USER", message ? { message } : undefined);
}

/**
 * Bans a user and ends every session they have, at once (issue 5). The ban is written first: a
 * sign-in racing this call either fails the ban check or mints a session that the session delete
 * below removes — and if it lands after the delete, readSession refuses it because the user is
 * banned (docs/security.md). Null when the user is gone or a hook refused.
 */
export async function banUser(
  auth: AuthContext,
  user: UserDoc,
  reason: string | undefined,
  expiresInSeconds: number | undefined,
): Promise<UserDoc | null> {
  const admin = auth.options.admin;
  const updated = await updateUser(auth, user._id, {
    banned: true,
    banReason: reason ?? admin.defaultBanReason,
    banExpires: banExpiry(auth.now(), expiresInSeconds ?? admin.defaultBanExpiresIn),
  });
  if (!updated) return null;
  // A banned admin's impersonations end too: they act with the admin's authority.
  await deleteAllSessionsOfUser(auth.collections, user._id);
  return updated;
}

export function unbanUser(auth: AuthContext, user: UserDoc): Promise<UserDoc | null> {
  return updateUser(auth, user._id, { ...LIFTED_BAN });
}
