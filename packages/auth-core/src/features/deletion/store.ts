import type { Collections } from "../../db/collections.ts";
import type { ObjectId } from "../../db/ids.ts";
import { deleteVerificationsWithValue } from "../../db/verifications.ts";
import { deleteUserRow, type UserWriter } from "../users/index.ts";
import { USER_TOKEN_IDENTIFIER } from "./rules.ts";

/**
 * Returns whether this call removed the user (false when a concurrent deletion got there first);
 * the users store gives up the address claim and the timeline entry with it.
 */
export function deleteUserDoc(
  writer: UserWriter,
  user: { _id: ObjectId; email: string; createdAt: Date },
): Promise<boolean> {
  return deleteUserRow(writer, user);
}

/**
 * Finishing a deletion a crash cut short: the user row if it is still there, and the address claim
 * and timeline entry either way (the crash may have come between them).
 */
export async function deleteUserDocAndClaim(
  writer: UserWriter,
  user: { _id: ObjectId; email: string; createdAt: Date },
): Promise<void> {
  await deleteUserRow(writer, user, true);
}

export { deleteUserAccounts } from "../../db/accounts.ts";

/** The user's pending reset-password and delete-account tokens (their value is the user id). */
export function deleteUserTokens(collections: Collections, userId: ObjectId): Promise<number> {
  return deleteVerificationsWithValue(collections, USER_TOKEN_IDENTIFIER, userId.toHexString());
}
