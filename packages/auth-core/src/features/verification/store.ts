import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { UserDoc, VerificationDoc } from "../../db/documents.ts";
import { verificationIdOf } from "../../db/ids.ts";
import { bumpListingsOfUserWrite } from "../../db/listing-version.ts";
import { startsWith } from "../../db/prefix.ts";

/** A verification's `_id` follows from its identifier (db/ids.ts keyedId): lookups are by `_id`. */
export { verificationIdOf };

/** The filter of one verification: its `_id`, and the identifier itself for exactness. */
const byIdentifier = (identifier: string) => ({
  _id: verificationIdOf(identifier),
  identifier: { $eq: identifier },
});

/**
 * One-time tokens kept in `verifications` (reset-password:{…}, delete-account-{…}, keyed by the
 * token's hash).
 * Shared by the password and deletion features.
 */
export async function createVerification(
  collections: Collections,
  identifier: string,
  value: string,
  expiresAt: Date,
  now: Date,
): Promise<VerificationDoc> {
  const doc: VerificationDoc = {
    _id: verificationIdOf(identifier),
    identifier,
    value,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  };
  await collections.verifications.insertOne(doc);
  return doc;
}

/** Reads without consuming; null when missing or expired. */
export function findVerification(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<VerificationDoc | null> {
  return collections.verifications.findOne({ ...byIdentifier(identifier), expiresAt: { $gt: now } });
}

/**
 * Consumes a one-time token: of any number of concurrent uses exactly one gets the row; null when
 * missing, expired or already used (or, with `value`, when it belongs to someone else — then it is
 * left for its owner). Find, then delete by _id and let the delete count decide: FerretDB v1 does
 * not serialise concurrent findOneAndDelete/findOneAndUpdate (measured: 2–9 winners of 10), while a
 * deleteOne's count has exactly one winner on every backend.
 */
export async function consumeVerification(
  collections: Collections,
  identifier: string,
  now: Date,
  value?: string,
): Promise<VerificationDoc | null> {
  const row = await collections.verifications.findOne({
    ...byIdentifier(identifier),
    expiresAt: { $gt: now },
    ...(value === undefined ? {} : { value: { $eq: value } }),
  });
  if (!row) return null;
  const { deletedCount } = await collections.verifications.deleteOne({ _id: row._id });
  return deletedCount === 1 ? row : null;
}

/**
 * Compare-and-set write on a user (FerretDB has no transactions): applies `fields` only while the
 * user still has `expectedEmail` (and, when given, `expectedVerified`). Null when the user is gone or
 * no longer matches — a concurrent verification or email change won. Throws the driver's duplicate
 * key error when `fields.email` belongs to another user (the unique index settles races).
 */
export async function updateUserWhereEmail(
  collections: Collections,
  userId: ObjectId,
  expectedEmail: string,
  expectedVerified: boolean | undefined,
  fields: Partial<Omit<UserDoc, "_id" | "createdAt">>,
): Promise<UserDoc | null> {
  const filter =
    expectedVerified === undefined
      ? { _id: userId, email: { $eq: expectedEmail } }
      : { _id: userId, email: { $eq: expectedEmail }, emailVerified: expectedVerified };
  const updated = await collections.users.findOneAndUpdate(
    filter,
    { $set: fields },
    { returnDocument: "after" },
  );
  await bumpListingsOfUserWrite(collections, userId, fields, updated !== null);
  return updated;
}

/**
 * Marks a stateless token as used: the unique index on `identifier` lets exactly one of any number
 * of concurrent claims insert the marker (a unique insert is atomic on every backend, unlike a
 * compare-and-set update on FerretDB v1). False when the token was already claimed.
 */
export async function claimOneTimeToken(
  collections: Collections,
  identifier: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  try {
    await createVerification(collections, identifier, "used", expiresAt, now);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/**
 * The one-time tokens whose identifier starts with `prefix` (their claim time is `createdAt`): for
 * `auth.cleanup()`, never a request.
 */
export function findOneTimeTokens(collections: Collections, prefix: string): Promise<VerificationDoc[]> {
  return collections.verifications.find({ identifier: startsWith(prefix) }).toArray();
}

/** Undoes a claim whose action then failed, so the same link gives the same answer again. */
export async function releaseOneTimeToken(collections: Collections, identifier: string): Promise<void> {
  await collections.verifications.deleteOne(byIdentifier(identifier));
}

/**
 * Deletes every outstanding password-reset token (`reset-password:`, features/password/rules.ts) of the user (after a successful reset, an older link still
 * sitting in the mailbox must not reset the password again). Runs once per successful reset, so
 * scanning the reset rows by `value` is acceptable without an index on it.
 */
export async function deleteResetTokensOfUser(collections: Collections, userIdHex: string): Promise<number> {
  const result = await collections.verifications.deleteMany({
    identifier: startsWith("reset-password:"),
    value: { $eq: userIdHex },
  });
  return result.deletedCount;
}
