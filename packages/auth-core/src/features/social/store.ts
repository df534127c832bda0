import type { Collections } from "../../db/collections.ts";
import type { VerificationDoc } from "../../db/documents.ts";
import {
  deleteVerification,
  insertVerificationIfAbsent,
  setVerificationFields,
} from "../../db/verifications.ts";

/**
 * The social feature's storage, through the owners of its tables: provider accounts in
 * db/accounts.ts (shared with the credential account and a deletion's cascade), claims and states
 * in db/verifications.ts, users through features/users' face.
 */
export {
  type AccountTokenFields,
  clearUnprovenMark,
  countUserAccounts,
  deleteAccountById,
  deleteUnprovenAccounts,
  findAccountById,
  findAccountByProviderIdentity,
  findUserAccountByAccountId,
  findUserProviderAccount,
  insertAccountIfAbsent,
  listUserAccounts,
  restoreAccount,
  updateAccountTokens,
} from "../../db/accounts.ts";

/** Removes a one-time claim whose holder let it expire; true when this call removed it. */
export function deleteExpiredClaim(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<boolean> {
  return deleteVerification(collections, identifier, { expiredAt: now });
}

/**
 * The refresh claim of an account: a unique insert (exact on every backend), its value the holder's
 * nonce. False when another request holds it.
 */
export function insertRefreshClaim(
  collections: Collections,
  identifier: string,
  holder: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  return insertVerificationIfAbsent(collections, identifier, holder, expiresAt, now);
}

/** Removes the claim only while it is still this holder's (a successor's stays). */
export async function releaseRefreshClaim(
  collections: Collections,
  identifier: string,
  holder: string,
): Promise<void> {
  await deleteVerification(collections, identifier, { value: holder });
}

/** A state record; `formPost` holds what a form_post callback sent, encrypted (state.ts). */
export type StateRow = VerificationDoc & { formPost?: string };

/** Adds the sealed form_post fields to a live state record; false when there is none. */
export function setStateFormPost(
  collections: Collections,
  identifier: string,
  sealed: string,
  now: Date,
): Promise<boolean> {
  return setVerificationFields(collections, identifier, now, { formPost: sealed });
}
