import type { AuthContext } from "../../context.ts";
import type { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { countUserAccounts, deleteAccountById, listUserAccounts, restoreAccount } from "./store.ts";

/**
 * the last account cannot be unlinked unless allowed, and the account
 * must exist. Two concurrent unlinks of a user's last two accounts would each see two accounts, so
 * the count is checked again after the delete: an unlink that left none puts its account back and
 * fails — at least one account survives whatever the interleaving (no delete-count or unique insert
 * can express "keep one", but a re-insert of the same document can undo exactly what this call did).
 */
export async function unlinkUserAccount(
  auth: AuthContext,
  userId: ObjectId,
  providerId: string,
  accountId: string | undefined,
): Promise<Outcome<void, "FAILED_TO_UNLINK_LAST_ACCOUNT" | "ACCOUNT_NOT_FOUND">> {
  const allowUnlinkingAll = auth.options.account.accountLinking.allowUnlinkingAll;
  const accounts = await listUserAccounts(auth.collections, userId);
  if (accounts.length === 1 && !allowUnlinkingAll) return refused("FAILED_TO_UNLINK_LAST_ACCOUNT");
  const target = accounts.find(
    (account) =>
      account.providerId === providerId && (accountId === undefined || account.accountId === accountId),
  );
  if (!target) return refused("ACCOUNT_NOT_FOUND");
  if (!(await deleteAccountById(auth.collections, target._id))) return refused("ACCOUNT_NOT_FOUND");
  if (allowUnlinkingAll) return granted(undefined);
  if ((await countUserAccounts(auth.collections, userId)) > 0) return granted(undefined);
  await restoreAccount(auth.collections, target);
  return refused("FAILED_TO_UNLINK_LAST_ACCOUNT");
}
