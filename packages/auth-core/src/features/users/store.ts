import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { type AccountDoc, CREDENTIAL_PROVIDER_ID, type UserDoc } from "../../db/documents.ts";

/** User and account queries shared by the account features (sign-up, sign-in, passwords, deletion). */
export function findUserByEmail(collections: Collections, email: string): Promise<UserDoc | null> {
  return collections.users.findOne({ email: { $eq: email } });
}

export function findCredentialAccount(
  collections: Collections,
  userId: ObjectId,
): Promise<AccountDoc | null> {
  return collections.accounts.findOne({ userId, providerId: CREDENTIAL_PROVIDER_ID });
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
    userId,
    providerId: CREDENTIAL_PROVIDER_ID,
    passwordResetRequired: { $eq: true },
  });
  return result.deletedCount === 1;
}

export async function insertUser(collections: Collections, doc: UserDoc): Promise<void> {
  await collections.users.insertOne(doc);
}

export async function insertAccount(collections: Collections, doc: AccountDoc): Promise<void> {
  await collections.accounts.insertOne(doc);
}

export async function updateUserFields(
  collections: Collections,
  userId: ObjectId,
  fields: Partial<Omit<UserDoc, "_id">>,
): Promise<UserDoc | null> {
  return collections.users.findOneAndUpdate({ _id: userId }, { $set: fields }, { returnDocument: "after" });
}

/**
 * Stores a password hash; with `expectedHash`, only while the account still has that hash (false
 * otherwise, and when the account is gone). A compare-and-set: atomic on MongoDB; on FerretDB v1 it
 * narrows the window to one round trip. `resetRequired` marks an admin-set password (J15); any
 * other write — a reset, a change, a re-hash — clears the mark.
 */
export async function setCredentialPassword(
  collections: Collections,
  accountId: ObjectId,
  hash: string,
  now: Date,
  expectedHash?: string | null,
  resetRequired = false,
): Promise<boolean> {
  const { filter, update } = credentialPasswordWrite(accountId, hash, now, expectedHash, resetRequired);
  const result = await collections.accounts.updateOne(filter, update);
  return result.matchedCount === 1;
}

/**
 * setCredentialPassword that answers with the stored account (null when nothing matched), for an
 * `after` hook: the same single command (findAndModify), no read after the write.
 */
export function setCredentialPasswordReturning(
  collections: Collections,
  accountId: ObjectId,
  hash: string,
  now: Date,
  expectedHash?: string | null,
  resetRequired = false,
): Promise<AccountDoc | null> {
  const { filter, update } = credentialPasswordWrite(accountId, hash, now, expectedHash, resetRequired);
  return collections.accounts.findOneAndUpdate(filter, update, { returnDocument: "after" });
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

export async function deleteUserById(collections: Collections, userId: ObjectId): Promise<void> {
  await collections.users.deleteOne({ _id: userId });
}
