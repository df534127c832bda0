import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { bumpListings, bumpListingsOfUserRemoval, deleteMembersListed } from "../../db/listing-version.ts";
import { releaseEmail, removeFromTimeline } from "../users/index.ts";
import { USER_TOKEN_IDENTIFIER } from "./rules.ts";

/**
 * Returns whether this call removed the user (false when a concurrent deletion got there first);
 * the remover gives up the address claim and the timeline entry.
 */
export async function deleteUserDoc(
  collections: Collections,
  user: { _id: ObjectId; email: string; createdAt: Date },
): Promise<boolean> {
  const result = await collections.users.deleteOne({ _id: user._id });
  if (result.deletedCount !== 1) return false;
  await bumpListingsOfUserRemoval(collections, user._id);
  await releaseEmail(collections, user.email, user._id);
  await removeFromTimeline(collections, user);
  return true;
}

/**
 * Finishing a deletion a crash cut short: the user row if it is still there, and the address claim
 * and timeline entry either way (the crash may have come between them); the claim only while it is
 * still this user's.
 */
export async function deleteUserDocAndClaim(
  collections: Collections,
  user: { _id: ObjectId; email: string; createdAt: Date },
): Promise<void> {
  await collections.users.deleteOne({ _id: user._id });
  await bumpListingsOfUserRemoval(collections, user._id);
  await releaseEmail(collections, user.email, user._id);
  await removeFromTimeline(collections, user);
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

/** The user's team memberships in these organizations (the `organizationId, userId` index). */
export async function deleteUserTeamMembers(
  collections: Collections,
  organizationIds: readonly ObjectId[],
  userId: ObjectId,
): Promise<number> {
  const result = await collections.teamMembers.deleteMany({
    organizationId: { $in: [...organizationIds] },
    userId,
  });
  return result.deletedCount;
}

/**
 * Every member row and team membership of the user, in any organization: the sweep after the user
 * row is gone, for rows a racing add-member or accept inserted after leaveOrganizations read them.
 */
export async function sweepUserMemberships(collections: Collections, userId: ObjectId): Promise<void> {
  // Until none is left: a row a racing add-member inserts after the read is deleted (and its
  // organization bumped) by the next round.
  for (let round = 0; round < 10; round++) {
    if ((await deleteMembersListed(collections, { userId })) === 0) break;
  }
  await collections.teamMembers.deleteMany({ userId });
}

/** Pending invitations the user sent in these organizations (their slots are freed with them). */
export async function deleteUserPendingInvitations(
  collections: Collections,
  organizationIds: readonly ObjectId[],
  inviterId: ObjectId,
): Promise<number> {
  const result = await collections.invitations.deleteMany({
    organizationId: { $in: [...organizationIds] },
    inviterId,
    status: "pending",
  });
  if (result.deletedCount > 0) await bumpListings(collections, organizationIds);
  return result.deletedCount;
}
