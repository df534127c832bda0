import type { AuthContext } from "../../context.ts";
import type { AccountDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { deleteUserSessions } from "../session/index.ts";
import type { ProviderProfile } from "./providers/types.ts";
import { clearUnprovenMark, deleteUnprovenAccounts } from "./store.ts";

/**
 * Pre-hijack through a provider that does not verify emails (matrix H9, CVE-2026-53516): anyone can
 * sign up at Spotify, Facebook, VK, Kick… with someone else's address, and Tessera then holds a user
 * under that address whose only way in is the stranger's provider identity. Such an account is
 * marked when stored; when the address is later proven by mail (the verify-email link, a password
 * reset through the mailed link) the mailbox owner wins: the marked accounts and every session of
 * the user go, and the stranger's next provider sign-in finds a user it may not link to
 * (rules.ts canLinkByEmail: the provider does not vouch for the email).
 */
export type ProviderAccountDoc = AccountDoc & {
  /** Stored while the user's email was unverified, by a provider that did not verify that email. */
  emailUnverifiedAtLink?: true;
};

/**
 * True when linking this identity to this user proves nothing about the user's mailbox: the user's
 * address is unverified and the provider did not verify that same address.
 */
export function isUnprovenLink(
  user: Pick<UserDoc, "email" | "emailVerified">,
  profile: ProviderProfile,
  providerEmail: string | null,
): boolean {
  if (user.emailVerified) return false;
  return !(profile.emailVerified && providerEmail === user.email);
}

/**
 * Called once a user's email is proven by mail (features/verification/verify-email-service.ts,
 * features/password/service.ts): deletes the provider accounts stored while it was unproven, and —
 * when there were any — every session of the user, which may be the stranger's. `keep` names an
 * account that has just proved the address itself (a provider now reporting it verified): it stays,
 * unmarked. Returns how many accounts were removed.
 */
export async function dropUnprovenProviderAccounts(
  auth: AuthContext,
  userId: ObjectId,
  keep?: ProviderAccountDoc,
): Promise<number> {
  const dropped = await deleteUnprovenAccounts(auth.collections, userId, keep?._id);
  if (keep?.emailUnverifiedAtLink) await clearUnprovenMark(auth.collections, keep._id);
  if (dropped > 0) await deleteUserSessions(auth.collections, userId);
  return dropped;
}
