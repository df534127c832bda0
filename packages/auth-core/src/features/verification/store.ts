import type { Collections } from "../../db/collections.ts";
import type { VerificationDoc } from "../../db/documents.ts";
import {
  deleteVerification,
  deleteVerificationsWithValue,
  findVerificationsWithPrefix,
  insertVerificationIfAbsent,
} from "../../db/verifications.ts";

/**
 * One-time tokens and used-link markers, as the verification feature and the features it serves
 * (password, deletion, social, organization invitations) name them. The rows live in
 * `verifications`, whose owner is db/verifications.ts (a table every feature keeps keyed rows in).
 */
export {
  consumeVerification,
  createVerification,
  findVerification,
} from "../../db/verifications.ts";

/**
 * Marks a stateless token as used: the unique index on `identifier` lets exactly one of any number
 * of concurrent claims insert the marker (a unique insert is atomic on every backend, unlike a
 * compare-and-set update on FerretDB v1). False when the token was already claimed.
 */
export function claimOneTimeToken(
  collections: Collections,
  identifier: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  return insertVerificationIfAbsent(collections, identifier, "used", expiresAt, now);
}

/**
 * The one-time tokens whose identifier starts with `prefix` (their claim time is `createdAt`): for
 * `auth.cleanup()`, never a request.
 */
export function findOneTimeTokens(collections: Collections, prefix: string): Promise<VerificationDoc[]> {
  return findVerificationsWithPrefix(collections, prefix);
}

/** Undoes a claim whose action then failed, so the same link gives the same answer again. */
export async function releaseOneTimeToken(collections: Collections, identifier: string): Promise<void> {
  await deleteVerification(collections, identifier);
}

/**
 * Deletes every outstanding password-reset token (`reset-password:`, features/password/rules.ts)
 * of the user (after a successful reset, an older link still sitting in the mailbox must not reset
 * the password again).
 */
export function deleteResetTokensOfUser(collections: Collections, userIdHex: string): Promise<number> {
  return deleteVerificationsWithValue(collections, "reset-password:", userIdHex);
}
