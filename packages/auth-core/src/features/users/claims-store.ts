import type { Collections } from "../../db/collections.ts";
import { insertManyIgnoringDuplicates, isDuplicateKeyError } from "../../db/connect.ts";
import type { EmailClaimDoc, UserDoc } from "../../db/documents.ts";
import { findFirst } from "../../db/find-page.ts";
import type { ObjectId } from "../../db/ids.ts";
import { bumpUsersListing } from "../../db/listing-version.ts";
import { upsertRetryingRace } from "../../db/upsert.ts";

/**
 * The owner of `emailClaims` (one row per address, `_id` = the address): how a user is found by email
 * and how races for an address are decided (docs/scale.md). It knows nothing of `users`: the users
 * store (store.ts) decides with these rows whose a claim is (takeEmailClaim, repairEmailClaim) and
 * writes them with each user write; repairs.ts checks them against the users. A claim write that
 * changes whom admin list-users' address-prefix search finds bumps the users' listing here.
 */

/** The claim of the address, or null. */
export function findClaim(collections: Collections, email: string): Promise<EmailClaimDoc | null> {
  return findFirst(collections.emailClaims, { _id: { $eq: email } });
}

/** Inserts the claim; false when the address is claimed already (a unique `_id`: one insert wins). */
export async function insertClaim(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<boolean> {
  try {
    await collections.emailClaims.insertOne({ _id: email, userId, createdAt: now });
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return false;
  }
}

/** Gives the address up, only while this user holds the claim. */
export async function releaseEmail(collections: Collections, email: string, userId: ObjectId): Promise<void> {
  await collections.emailClaims.deleteOne({ _id: { $eq: email }, userId });
}

/** Deletes the claim of an address nobody holds. */
export async function deleteClaim(collections: Collections, email: string): Promise<void> {
  await collections.emailClaims.deleteOne({ _id: { $eq: email } });
}

/**
 * Points the claim of `email` at `userId` (written when there is none). The holder is now found by
 * admin list-users' address-prefix search: the users' listing is bumped when a row changed.
 */
export async function pointClaimAt(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<void> {
  if (await writeClaim(collections, email, userId, now)) await bumpUsersListing(collections);
}

/** pointClaimAt for each `[email, userId]`, one bump at the end; answers how many rows changed. */
export async function pointClaimsAt(
  collections: Collections,
  holders: readonly (readonly [string, ObjectId])[],
  now: Date,
): Promise<number> {
  let changed = 0;
  for (const [email, userId] of holders) if (await writeClaim(collections, email, userId, now)) changed++;
  if (changed > 0) await bumpUsersListing(collections);
  return changed;
}

/** True when the write changed a row. */
async function writeClaim(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<boolean> {
  // Two repairs of one address at once (concurrent sign-ups losing to the same user) race to insert.
  const result = await upsertRetryingRace(() =>
    collections.emailClaims.updateOne(
      { _id: { $eq: email } },
      { $set: { userId }, $setOnInsert: { createdAt: now } },
      { upsert: true },
    ),
  );
  return result.upsertedCount + result.modifiedCount > 0;
}

/**
 * Claims written in bulk for users about to be written in bulk (store.ts insertUsersInBulk): the
 * users whose address is now theirs. A claim already held by the same user id is this user's own,
 * left by a run that stopped between the claims and the users (an interrupted import): it counts.
 */
export async function claimAddressesInBulk<T extends Pick<UserDoc, "_id" | "email" | "createdAt">>(
  collections: Collections,
  docs: readonly T[],
): Promise<T[]> {
  const claims = docs.map((doc) => ({ _id: doc.email, userId: doc._id, createdAt: doc.createdAt }));
  const unclaimed = await insertManyIgnoringDuplicates(collections.emailClaims, claims);
  const ownClaims =
    unclaimed.size === 0
      ? []
      : await collections.emailClaims
          .find({ _id: { $in: [...unclaimed].map((index) => docs[index]!.email) } })
          .toArray();
  const ownedBy = new Map(ownClaims.map((claim) => [claim._id, claim.userId.toHexString()]));
  return docs.filter(
    (doc, index) => !unclaimed.has(index) || ownedBy.get(doc.email) === doc._id.toHexString(),
  );
}

/**
 * The user ids of the address claims in `range` (`_id` = the address, so an address prefix is one
 * `_id` range, db/prefix.ts), at most `limit`.
 */
export async function findClaimedUserIds(
  collections: Collections,
  range: { $gte: string; $lt: string },
  limit: number,
): Promise<ObjectId[]> {
  const claims = await collections.emailClaims
    .find({ _id: range }, { projection: { userId: 1 } })
    .limit(limit)
    .toArray();
  return claims.map((claim) => claim.userId);
}

/** Every claim, streamed (`tessera doctor`'s check, repairs.ts). */
export function readClaims(collections: Collections): AsyncIterable<EmailClaimDoc> {
  return collections.emailClaims.find({});
}

/** Deletes the claims of `emails` (stale ones: their user is gone or holds another address). */
export async function deleteClaims(collections: Collections, emails: readonly string[]): Promise<number> {
  return (await collections.emailClaims.deleteMany({ _id: { $in: [...emails] } })).deletedCount;
}
