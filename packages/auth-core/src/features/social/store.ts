import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import {
  type AccountDoc,
  CREDENTIAL_PROVIDER_ID,
  type UserDoc,
  type VerificationDoc,
} from "../../db/documents.ts";
import { accountIdOf, deleteUserById as deleteUserAndClaim, insertAccount } from "../users/index.ts";
import { createVerification, verificationIdOf } from "../verification/index.ts";

/** The only file of the social feature that talks to MongoDB. */

/** The account of one provider identity (unique index `(providerId, accountId)`). */
export function findAccountByProviderIdentity(
  collections: Collections,
  providerId: string,
  accountId: string,
): Promise<AccountDoc | null> {
  return collections.accounts.findOne({
    _id: accountIdOf(providerId, accountId),
    providerId: { $eq: providerId },
    accountId: { $eq: accountId },
  });
}

export function findUserById(collections: Collections, userId: ObjectId): Promise<UserDoc | null> {
  return collections.users.findOne({ _id: userId });
}

/** Every account of a user, oldest first (index `userId`). */
export function listUserAccounts(collections: Collections, userId: ObjectId): Promise<AccountDoc[]> {
  return collections.accounts.find({ userId }).sort({ createdAt: 1, _id: 1 }).limit(1000).toArray();
}

/**
 * A user's account of one provider (index `userId_providerId`, 0003); with `accountId`, that one.
 * Null when none.
 */
export function findUserProviderAccount(
  collections: Collections,
  userId: ObjectId,
  providerId: string,
  accountId?: string,
): Promise<AccountDoc | null> {
  // With the account id (or for the credential account, whose id is the user's), one `_id` lookup.
  const known = accountId ?? (providerId === CREDENTIAL_PROVIDER_ID ? userId.toHexString() : undefined);
  return collections.accounts.findOne({
    ...(known === undefined ? {} : { _id: accountIdOf(providerId, known), accountId: { $eq: known } }),
    userId,
    providerId: { $eq: providerId },
  });
}

/** A user's account by the provider's account id, whatever the provider (account-info). */
export function findUserAccountByAccountId(
  collections: Collections,
  userId: ObjectId,
  accountId: string,
): Promise<AccountDoc | null> {
  return collections.accounts.findOne({ userId, accountId: { $eq: accountId } });
}

/** False when the `(providerId, accountId)` identity already has an account (the unique index decides). */
export async function insertAccountIfAbsent(collections: Collections, doc: AccountDoc): Promise<boolean> {
  try {
    await insertAccount(collections, doc);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export type AccountTokenFields = Pick<
  AccountDoc,
  | "accessToken"
  | "refreshToken"
  | "idToken"
  | "accessTokenExpiresAt"
  | "refreshTokenExpiresAt"
  | "scope"
  | "updatedAt"
>;

/** Stores (encrypted) tokens on an account; false when the account is gone. */
export async function updateAccountTokens(
  collections: Collections,
  accountId: ObjectId,
  fields: Partial<AccountTokenFields>,
): Promise<boolean> {
  const result = await collections.accounts.updateOne({ _id: accountId }, { $set: fields });
  return result.matchedCount === 1;
}

export function findAccountById(collections: Collections, accountId: ObjectId): Promise<AccountDoc | null> {
  return collections.accounts.findOne({ _id: accountId });
}

/** Removes a one-time claim whose holder let it expire; true when this call removed it. */
export async function deleteExpiredClaim(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<boolean> {
  const result = await collections.verifications.deleteOne({
    _id: verificationIdOf(identifier),
    identifier: { $eq: identifier },
    expiresAt: { $lte: now },
  });
  return result.deletedCount === 1;
}

/** True when this call removed the account (a delete count: exact under concurrency). */
export async function deleteAccountById(collections: Collections, accountId: ObjectId): Promise<boolean> {
  const result = await collections.accounts.deleteOne({ _id: accountId });
  return result.deletedCount === 1;
}

export async function countUserAccounts(collections: Collections, userId: ObjectId): Promise<number> {
  return collections.accounts.countDocuments({ userId });
}

/** Puts back an account an unlink removed (same document, same _id). False when it is already back. */
export async function restoreAccount(collections: Collections, doc: AccountDoc): Promise<boolean> {
  return insertAccountIfAbsent(collections, doc);
}

/** Undoes a user created for a sign-up whose account could not be stored (no user without an account). */
export async function deleteUserById(collections: Collections, userId: ObjectId): Promise<void> {
  await deleteUserAndClaim(collections, userId);
}

/**
 * Deletes a user's provider accounts marked `emailUnverifiedAtLink` (but `keep`, when given);
 * the count removed. One deleteMany on the `userId` index.
 */
export async function deleteUnprovenAccounts(
  collections: Collections,
  userId: ObjectId,
  keep?: ObjectId,
): Promise<number> {
  const result = await collections.accounts.deleteMany({
    userId,
    emailUnverifiedAtLink: true,
    ...(keep === undefined ? {} : { _id: { $ne: keep } }),
  });
  return result.deletedCount;
}

/** The account's identity proved the mailbox after all: it is no longer an unproven one. */
export async function clearUnprovenMark(collections: Collections, accountId: ObjectId): Promise<void> {
  await collections.accounts.updateOne({ _id: accountId }, { $unset: { emailUnverifiedAtLink: "" } });
}

/**
 * The refresh claim of an account: a unique insert (exact on every backend), its value the holder's
 * nonce. False when another request holds it.
 */
export async function insertRefreshClaim(
  collections: Collections,
  identifier: string,
  holder: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  try {
    await createVerification(collections, identifier, holder, expiresAt, now);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** Removes the claim only while it is still this holder's (a successor's stays). */
export async function releaseRefreshClaim(
  collections: Collections,
  identifier: string,
  holder: string,
): Promise<void> {
  await collections.verifications.deleteOne({
    _id: verificationIdOf(identifier),
    identifier: { $eq: identifier },
    value: { $eq: holder },
  });
}

/** A state record; `formPost` holds what a form_post callback sent, encrypted (state.ts). */
export type StateRow = VerificationDoc & { formPost?: string };

/** Adds the sealed form_post fields to a live state record; false when there is none. */
export async function setStateFormPost(
  collections: Collections,
  identifier: string,
  sealed: string,
  now: Date,
): Promise<boolean> {
  const result = await collections.verifications.updateOne(
    { _id: verificationIdOf(identifier), identifier: { $eq: identifier }, expiresAt: { $gt: now } },
    { $set: { formPost: sealed } },
  );
  return result.matchedCount === 1;
}
