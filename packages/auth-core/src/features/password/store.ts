import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";

/**
 * Sets the password only while the account has none; false when one was set meanwhile. The filter
 * is a compare-and-set on MongoDB; FerretDB v1 does not serialise concurrent updates, so there it
 * narrows the race rather than closing it (acceptable: set-password is server-only).
 */
export async function setPasswordIfUnset(
  collections: Collections,
  accountId: ObjectId,
  hash: string,
  now: Date,
): Promise<boolean> {
  const result = await collections.accounts.updateOne(
    { _id: accountId, password: null },
    { $set: { password: hash, updatedAt: now } },
  );
  return result.matchedCount === 1;
}

/**
 * Deletes every outstanding reset token of the user (after a successful reset, an older link still
 * sitting in the mailbox must not reset the password again). Runs once per successful reset, so
 * scanning the reset rows by `value` is acceptable without an index on it.
 */
export async function deleteResetTokensOfUser(collections: Collections, userIdHex: string): Promise<number> {
  const result = await collections.verifications.deleteMany({
    identifier: { $regex: "^reset-password:" },
    value: { $eq: userIdHex },
  });
  return result.deletedCount;
}
