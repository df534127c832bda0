import type { ObjectId } from "mongodb";
import type { Collections } from "./collections.ts";
import { insertManyIgnoringDuplicates, isDuplicateKeyError } from "./connect.ts";
import { type AccountDoc, CREDENTIAL_PROVIDER_ID, type EventDoc } from "./documents.ts";
import { pushEvents, withoutOutbox } from "./event-source.ts";
import { findFirst } from "./find-page.ts";
import { keyedId } from "./ids.ts";
import { type RemovableRows, removableRowsOf } from "./stored-rows.ts";

/**
 * The owner of `accounts`, a table three features share: a user's credential account
 * (features/users, features/password), the provider accounts (features/social), and the cascade
 * of a deletion (features/deletion). Every read and write of an account is here.
 */

/**
 * An account's `_id` follows from its provider identity (db/ids.ts keyedId), so the lookups by
 * identity are lookups by `_id`; a credential account's identity is its user's id.
 */
export const accountIdOf = (providerId: string, accountId: string) =>
  keyedId("account", providerId, accountId);

/**
 * The accounts as a source of events (features/events EventSource; db/ imports no feature): a
 * password write carries password.changed in the account's outbox, which features/users relays.
 */
export const accountEventSource = {
  name: "accounts",
  collection: (collections: Collections) => collections.accounts,
};

/** The filter of a user's credential account: its `_id`, and the fields it follows from. */
const credentialOf = (userId: ObjectId) => ({
  _id: accountIdOf(CREDENTIAL_PROVIDER_ID, userId.toHexString()),
  userId,
  providerId: CREDENTIAL_PROVIDER_ID,
});

export function findCredentialAccount(
  collections: Collections,
  userId: ObjectId,
): Promise<AccountDoc | null> {
  return findFirst(collections.accounts, credentialOf(userId));
}

/**
 * Deletes the user's credential account: a sign-up's own when its user insert failed, or one a
 * crashed sign-up left for a user that never came (takeEmailClaim's `abandonedBy`).
 */
export async function deleteCredentialAccount(collections: Collections, userId: ObjectId): Promise<void> {
  await collections.accounts.deleteOne(credentialOf(userId));
}

/**
 * Deletes the user's credential account while its password is one an admin chose and nobody has
 * reset since (`passwordResetRequired`). True when one went.
 */
export async function deleteAdminChosenPassword(
  collections: Collections,
  userId: ObjectId,
): Promise<boolean> {
  const result = await collections.accounts.deleteOne({
    ...credentialOf(userId),
    passwordResetRequired: { $eq: true },
  });
  return result.deletedCount === 1;
}

/** Inserts the account under the `_id` its identity gives (set on `doc`, whatever a hook left there). */
export async function insertAccount(
  collections: Collections,
  doc: AccountDoc,
  events: readonly EventDoc[] = [],
): Promise<void> {
  doc._id = accountIdOf(doc.providerId, doc.accountId);
  await collections.accounts.insertOne(events.length === 0 ? doc : { ...doc, _events: [...events] });
}

/**
 * Stores a password hash; with `expectedHash`, only while the account still has that hash (false
 * otherwise, and when the account is gone). A compare-and-set: atomic on MongoDB; on FerretDB v1 it
 * narrows the window to one round trip. `resetRequired` marks an admin-set password; any
 * other write — a reset, a change, a re-hash — clears the mark.
 */
export async function setCredentialPassword(
  collections: Collections,
  accountId: ObjectId,
  hash: string,
  now: Date,
  expectedHash?: string | null,
  resetRequired = false,
  events: readonly EventDoc[] = [],
): Promise<boolean> {
  const { filter, update } = credentialPasswordWrite(accountId, hash, now, expectedHash, resetRequired);
  const result = await collections.accounts.updateOne(filter, { ...update, ...pushEvents(events) });
  return result.matchedCount === 1;
}

/**
 * setCredentialPassword that answers with the stored account (null when nothing matched), for an
 * `after` hook: the same single command (findAndModify), no read after the write.
 */
export async function setCredentialPasswordReturning(
  collections: Collections,
  accountId: ObjectId,
  hash: string,
  now: Date,
  expectedHash?: string | null,
  resetRequired = false,
  events: readonly EventDoc[] = [],
): Promise<AccountDoc | null> {
  const { filter, update } = credentialPasswordWrite(accountId, hash, now, expectedHash, resetRequired);
  const stored = await collections.accounts.findOneAndUpdate(
    filter,
    { ...update, ...pushEvents(events) },
    { returnDocument: "after" },
  );
  return withoutOutbox(stored);
}

function credentialPasswordWrite(
  accountId: ObjectId,
  hash: string,
  now: Date,
  expectedHash: string | null | undefined,
  resetRequired: boolean,
) {
  // `null`: only while no password is set ($eq null also matches a missing field).
  const filter =
    expectedHash === undefined ? { _id: accountId } : { _id: accountId, password: { $eq: expectedHash } };
  const update = resetRequired
    ? { $set: { password: hash, updatedAt: now, passwordResetRequired: true as const } }
    : { $set: { password: hash, updatedAt: now }, $unset: { passwordResetRequired: "" as const } };
  return { filter, update };
}

/** Sets fields on an account and answers with the stored account (null when it is gone). */
export function updateAccountFieldsReturning(
  collections: Collections,
  accountId: ObjectId,
  fields: Partial<Omit<AccountDoc, "_id" | "userId">>,
): Promise<AccountDoc | null> {
  return collections.accounts.findOneAndUpdate(
    { _id: accountId },
    { $set: fields },
    { returnDocument: "after" },
  );
}

/** Accounts written in bulk under their keyed `_id`s (the bench's seeding, imports); duplicates are skipped. */
export async function insertAccountsInBulk(collections: Collections, docs: AccountDoc[]): Promise<void> {
  for (const doc of docs) doc._id = accountIdOf(doc.providerId, doc.accountId);
  await insertManyIgnoringDuplicates(collections.accounts, docs);
}

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

/** Every account of the user (a deletion's cascade); the count removed. */
export async function deleteUserAccounts(collections: Collections, userId: ObjectId): Promise<number> {
  const result = await collections.accounts.deleteMany({ userId });
  return result.deletedCount;
}

/**
 * Every account of one provider (a deleted SSO connection's: a later connection registered under
 * the same providerId must not inherit its users). On the `(providerId, accountId)` index.
 */
export async function deleteProviderAccounts(collections: Collections, providerId: string): Promise<number> {
  const result = await collections.accounts.deleteMany({ providerId: { $eq: providerId } });
  return result.deletedCount;
}

/** `tessera doctor`'s view of the accounts (db/stored-rows.ts). */
export function accountRowsForChecks(collections: Collections): RemovableRows {
  return removableRowsOf(collections.accounts);
}
