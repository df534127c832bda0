import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { UserDoc } from "../../db/documents.ts";
import { findFirst } from "../../db/find-page.ts";
import { ObjectId } from "../../db/ids.ts";
import { bumpUsersListing } from "../../db/listing-version.ts";

/**
 * The address claims (`emailClaims`: one row per address, `_id` = the address): how a user is
 * found by email and how races for an address are decided (docs/scale.md). Owned by the users store
 * files with `users` and `userTimeline`: the users store claims before a user or an address move is
 * written and gives the claim up with it; this file holds the claims' own reads and repairs.
 */

/** An `_id` no user has: what an unclaimed address's second lookup asks for. */
export const NOBODY = new ObjectId("000000000000000000000000");

/**
 * The user holding the address: its claim, then the user by `_id` — both lookups by `_id`
 * (docs/scale.md), whatever the number of users, also for an address nobody has. A claim whose user
 * is gone or holds another address answers null.
 */
export async function findUserByEmail(collections: Collections, email: string): Promise<UserDoc | null> {
  const claim = await findFirst(collections.emailClaims, { _id: { $eq: email } });
  // An address nobody has costs the same two commands (sign-in must not tell it apart).
  return findFirst(collections.users, { _id: claim?.userId ?? NOBODY, email: { $eq: email } });
}

/**
 * Claims the address for the user before the user (or its new address) is written. False when
 * another user holds it. A claim whose user is gone or holds another address (a crash between
 * claim and write, or a write that lost) is stale: it is deleted and the insert tried again, and of
 * concurrent claimers exactly one insert wins (a unique `_id`). The unique email index on users
 * stays the arbiter between a claimer and a user written meanwhile: the loser's write fails, and
 * repairEmailClaim points the claim at whoever holds the address.
 */
export async function claimEmail(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<boolean> {
  return (await takeEmailClaim(collections, email, userId, now)) !== null;
}

/**
 * claimEmail that also tells whose claim it took over: `abandonedBy` is the user id of a stale claim
 * whose user does not exist at all — a sign-up cut by a crash after its claim (and perhaps its
 * credential account, written before the user: createUserWithPassword), or a sign-up still in
 * flight. Null when no claim was taken over, or its user exists under another address. Null
 * instead of the object when another user holds the address.
 */
export async function takeEmailClaim(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<{ abandonedBy: ObjectId | null } | null> {
  let abandonedBy: ObjectId | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await collections.emailClaims.insertOne({ _id: email, userId, createdAt: now });
      return { abandonedBy };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const claim = await collections.emailClaims.findOne({ _id: { $eq: email } });
    if (!claim) continue;
    if (claim.userId.equals(userId)) return { abandonedBy };
    const holder = await collections.users.findOne({ _id: claim.userId }, { projection: { email: 1 } });
    if (holder?.email === email) return null;
    abandonedBy = holder ? null : claim.userId;
    await collections.emailClaims.deleteOne({ _id: { $eq: email }, userId: claim.userId });
  }
  return null;
}

/**
 * After a user write lost to the unique email index: the claim goes to the user who holds the
 * address (found by scanning users — only ever on this conflict), or away when nobody does.
 */
export async function repairEmailClaim(collections: Collections, email: string, now: Date): Promise<void> {
  const holder = await collections.users.findOne({ email: { $eq: email } });
  if (!holder) {
    await collections.emailClaims.deleteOne({ _id: { $eq: email } });
    return;
  }
  if (await pointClaimAt(collections, email, holder._id, now))
    // The holder is now found by admin list-users' address-prefix search.
    await bumpUsersListing(collections);
}

/** Writes the claim of `email` for `userId`; true when that changed a row. */
async function pointClaimAt(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<boolean> {
  const write = () =>
    collections.emailClaims.updateOne(
      { _id: { $eq: email } },
      { $set: { userId }, $setOnInsert: { createdAt: now } },
      { upsert: true },
    );
  // Two repairs of one address at once (concurrent sign-ups losing to the same user): both upserts
  // may find no row and try to insert it; the loser's duplicate key means the row exists now, so the
  // write is made again as an update (MongoDB retries such upserts itself; FerretDB does not).
  const result = await write().catch((error: unknown) => {
    if (isDuplicateKeyError(error)) return write();
    throw error;
  });
  return result.upsertedCount + result.modifiedCount > 0;
}

/** Gives the address up, only while this user holds the claim. */
export async function releaseEmail(collections: Collections, email: string, userId: ObjectId): Promise<void> {
  await collections.emailClaims.deleteOne({ _id: { $eq: email }, userId });
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

const BATCH = 1000;

export interface EmailClaimGaps {
  /** The addresses of users without their claim (they are not found by email: cannot sign in). */
  unclaimed: string[];
  /** Claims whose user is gone or holds another address (harmless: the next claimer takes them over). */
  stale: string[];
  /** With `fix`: the claims written, and the stale ones deleted. */
  claimed: number;
  deleted: number;
}

/**
 * The claims checked against the users (`tessera doctor`), and with `fix` repaired: each user's
 * address claimed, the stale claims deleted. A claim written makes its user found by admin
 * list-users' address-prefix search, so the users' listing is bumped.
 */
export async function repairEmailClaims(
  collections: Collections,
  fix: boolean,
  now: Date,
): Promise<EmailClaimGaps> {
  const holders = new Map<string, ObjectId>();
  for await (const user of collections.users.find({}, { projection: { email: 1 } }))
    holders.set(user.email, user._id);
  const claimedAddresses = new Set<string>();
  const stale: string[] = [];
  for await (const claim of collections.emailClaims.find({})) {
    if (holders.get(claim._id)?.equals(claim.userId)) claimedAddresses.add(claim._id);
    else stale.push(claim._id);
  }
  const unclaimed = [...holders].filter(([email]) => !claimedAddresses.has(email));
  const gaps: EmailClaimGaps = {
    unclaimed: unclaimed.map(([email]) => email),
    stale,
    claimed: 0,
    deleted: 0,
  };
  if (!fix) return gaps;
  for (let start = 0; start < stale.length; start += BATCH) {
    const batch = stale.slice(start, start + BATCH);
    gaps.deleted += (await collections.emailClaims.deleteMany({ _id: { $in: batch } })).deletedCount;
  }
  for (const [email, userId] of unclaimed)
    if (await pointClaimAt(collections, email, userId, now)) gaps.claimed++;
  if (gaps.claimed > 0) await bumpUsersListing(collections);
  return gaps;
}
