import type { AuthContext } from "../context.ts";
import type { ObjectId } from "../db/ids.ts";
import { revokeSessionMintedKeys } from "./api-key/index.ts";
import { dispatchMail, toMailUser } from "./mail-dispatch.ts";
import { deleteAllSessionsOfUser } from "./session/index.ts";
import { findUserById } from "./users/index.ts";

export interface SignedOutEverywhere {
  /** Sessions ended: the user's own and the impersonations they started as an admin. */
  sessions: number;
  /** API keys created from the user's sessions, deleted. */
  apiKeys: number;
}

/**
 * Ends every credential a session of the user could have minted — what an owner's "sign out
 * everywhere" and a password reset promise (docs/security.md "Account recovery ends every
 * credential an attacker could have minted"): every session of the user except `keepToken`, the
 * impersonation sessions they started as an admin, and the API keys created from a session (keys
 * server code created for the user stay). Sessions go first: a crash between the two leaves keys,
 * which the next sign-out-everywhere takes, never a session that could mint another. When keys
 * went, the owner is told by mail (an integration of theirs may have stopped).
 */
export async function signOutEverywhere(
  auth: AuthContext,
  userId: ObjectId,
  keepToken?: string,
): Promise<SignedOutEverywhere> {
  const sessions = await deleteAllSessionsOfUser(auth.collections, userId, keepToken);
  const apiKeys = await revokeKeysMintedBySessions(auth, userId);
  return { sessions, apiKeys };
}

/**
 * The API keys created from the user's sessions, deleted, and the owner told when there were any:
 * the second half of signing out everywhere, also run when an administrator ends a user's sessions
 * (admin revoke-user-sessions). Returns how many went.
 */
export async function revokeKeysMintedBySessions(auth: AuthContext, userId: ObjectId): Promise<number> {
  const apiKeys = await revokeSessionMintedKeys(auth, userId);
  if (apiKeys > 0) notifyKeysRevoked(auth, userId, apiKeys);
  return apiKeys;
}

/** Not awaited: the keys are gone whatever the mailer does (failures are logged). */
function notifyKeysRevoked(auth: AuthContext, userId: ObjectId, count: number): void {
  const send = async () => {
    const user = await findUserById(auth.collections, userId);
    if (!user) return;
    const hook = auth.options.mail?.sendApiKeysRevokedNotice;
    await dispatchMail(
      auth,
      "api-keys-revoked",
      user,
      { count },
      hook && (() => hook({ user: toMailUser(user), count })),
    );
  };
  send().catch((error: unknown) => auth.options.logger.error("API key revocation notice failed", error));
}
