import type { ObjectId } from "mongodb";
import type { AuthContext } from "../context.ts";
import { revokeSessionMintedKeys } from "./api-key/service.ts";
import { deleteAllSessionsOfUser } from "./session/store.ts";

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
 * which the next sign-out-everywhere takes, never a session that could mint another.
 */
export async function signOutEverywhere(
  auth: AuthContext,
  userId: ObjectId,
  keepToken?: string,
): Promise<SignedOutEverywhere> {
  const sessions = await deleteAllSessionsOfUser(auth.collections, userId, keepToken);
  const apiKeys = await revokeSessionMintedKeys(auth, userId);
  return { sessions, apiKeys };
}
