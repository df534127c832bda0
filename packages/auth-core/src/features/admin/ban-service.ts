import type { AuthContext } from "../../context.ts";
import type { UserDoc } from "../../db/documents.ts";
import { deleteAllSessionsOfUser } from "../session/index.ts";
import { updateUser } from "../users/index.ts";
import { banExpiry, LIFTED_BAN } from "./rules.ts";

/**
 * Bans a user and ends every session they have, at once. The ban is written first: a
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
