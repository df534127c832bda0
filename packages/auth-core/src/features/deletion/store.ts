import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { USER_TOKEN_IDENTIFIER } from "./rules.ts";

/** Returns whether this call removed the user (false when a concurrent deletion got there first). */
export async function deleteUserDoc(collections: Collections, userId: ObjectId): Promise<boolean> {
  const result = await collections.users.deleteOne({ _id: userId });
  return result.deletedCount === 1;
}

export async function deleteUserAccounts(collections: Collections, userId: ObjectId): Promise<number> {
  const result = await collections.accounts.deleteMany({ userId });
  return result.deletedCount;
}

/** The user's pending reset-password and delete-account tokens (their value is the user id). */
export async function deleteUserTokens(collections: Collections, userId: ObjectId): Promise<number> {
  const result = await collections.verifications.deleteMany({
    identifier: { $regex: USER_TOKEN_IDENTIFIER },
    value: { $eq: userId.toHexString() },
  });
  return result.deletedCount;
}
