import type { Collections } from "../../db/collections.ts";

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
