import { type Filter, ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { insertManyIgnoringDuplicates, isDuplicateKeyError } from "../../db/connect.ts";
import type { UserDoc, UserTimelineDoc } from "../../db/documents.ts";
import { findFirst, findPage, type PageQuery } from "../../db/find-page.ts";
import { TIMELINE_RANGE, timelineIdOf } from "../../db/ids.ts";
import {
  bumpListingsOfUserRemoval,
  bumpListingsOfUserWrite,
  bumpUsersListing,
} from "../../db/listing-version.ts";
import { enterEveryUser } from "../../db/migrations/0010-user-timeline.ts";
import { findRawPage, type RawPage } from "../../db/raw-page.ts";

/**
 * The owner of `users` and of the two tables that follow every user write: `emailClaims` (one row
 * per address, `_id` = the address: how a user is found by email and how races for an address are
 * decided) and `userTimeline` (one entry per user, what admin list-users pages through,
 * docs/scale.md). Each write function here also writes the claim, the timeline entry and the
 * listing bumps (db/listing-version.ts) its write needs, so no caller can forget one. Other
 * features, the operator API and the CLI reach these tables only through features/users' face.
 */

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

/** Written before the user: a cut leaves an entry without a user, which readers skip. */
export async function addToTimeline(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "createdAt">,
): Promise<void> {
  await collections.userTimeline.updateOne(
    { _id: { $eq: timelineIdOf(user.createdAt, user._id) } },
    { $setOnInsert: { userId: user._id } },
    { upsert: true },
  );
}

export async function removeFromTimeline(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "createdAt">,
): Promise<void> {
  await collections.userTimeline.deleteOne({ _id: { $eq: timelineIdOf(user.createdAt, user._id) } });
}

/** A timeline entry younger than this may be a sign-up whose user insert is still on its way. */
const TIMELINE_SETTLE_MS = 60_000;

/**
 * Cleanup (features/cleanup.ts): when the timeline and the users differ in number, enters every
 * user that has no entry and removes the settled entries whose user is gone (a cut between the
 * entry and the user insert, or between the user delete and the entry's). Answers how many
 * entries it wrote or removed; nothing to do costs two counts.
 */
export async function reconcileUserTimeline(collections: Collections, now: Date): Promise<number> {
  const [users, entries] = await Promise.all([
    collections.users.estimatedDocumentCount(),
    collections.userTimeline.estimatedDocumentCount(),
  ]);
  if (users === entries) return 0;
  let changed = await enterEveryUser(collections);
  const settled = timelineIdOf(new Date(now.getTime() - TIMELINE_SETTLE_MS), NOBODY);
  let batch: UserTimelineDoc[] = [];
  const removeOrphans = async () => {
    const entries = batch;
    batch = [];
    const ids = entries.map((entry) => entry.userId);
    const present = new Set(
      (await collections.users.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray()).map(
        (user) => user._id.toHexString(),
      ),
    );
    // By the entries' own `_id`s (all settled: read below `settled`): an index read, not a scan.
    const orphans = entries
      .filter((entry) => !present.has(entry.userId.toHexString()))
      .map((entry) => entry._id);
    if (orphans.length === 0) return;
    changed += (await collections.userTimeline.deleteMany({ _id: { $in: orphans } })).deletedCount;
  };
  for await (const entry of collections.userTimeline.find({ _id: { $gte: "t", $lt: settled } })) {
    batch.push(entry);
    if (batch.length >= 1000) await removeOrphans();
  }
  if (batch.length > 0) await removeOrphans();
  // Which reads answer list-users changed (the timeline's or the users collection's own).
  if (changed > 0) await bumpUsersListing(collections);
  return changed;
}

/** An `_id` no user has: what an unclaimed address's second lookup asks for. */
const NOBODY = new ObjectId("000000000000000000000000");

/**
 * Claims the address for the user before the user (or its new address) is written. False when
 * another user holds it. A claim whose user is gone or holds another address (a crash between
 * claim and write, or a write that lost) is stale: it is deleted and the insert tried again, and of
 * concurrent claimers exactly one insert wins (a unique `_id`). The unique email index on users
 * stays the arbiter between a claimer and a user written meanwhile: the loser's write fails, and
 * repairEmailClaim points the claim at whoever holds the address.
 */
async function claimEmail(
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
  const result = await collections.emailClaims.updateOne(
    { _id: { $eq: email } },
    { $set: { userId: holder._id }, $setOnInsert: { createdAt: now } },
    { upsert: true },
  );
  // The holder is now found by admin list-users' address-prefix search.
  if (result.upsertedCount + result.modifiedCount > 0) await bumpUsersListing(collections);
}

/** Gives the address up, only while this user holds the claim. */
export async function releaseEmail(collections: Collections, email: string, userId: ObjectId): Promise<void> {
  await collections.emailClaims.deleteOne({ _id: { $eq: email }, userId });
}

/**
 * Users written in bulk with their claims (the bench's seeding, imports): claims first, then the
 * users, in batches. Documents whose address is claimed already are left out; answers those written.
 */
export async function insertUsersInBulk(collections: Collections, docs: UserDoc[]): Promise<UserDoc[]> {
  if (docs.length === 0) return [];
  const claims = docs.map((doc) => ({ _id: doc.email, userId: doc._id, createdAt: doc.createdAt }));
  const unclaimed = await insertManyIgnoringDuplicates(collections.emailClaims, claims);
  const claimed = docs.filter((_, index) => !unclaimed.has(index));
  await insertManyIgnoringDuplicates(
    collections.userTimeline,
    claimed.map((doc) => ({ _id: timelineIdOf(doc.createdAt, doc._id), userId: doc._id })),
  );
  const refused = await insertManyIgnoringDuplicates(collections.users, claimed);
  await bumpUsersListing(collections);
  return claimed.filter((_, index) => !refused.has(index));
}

export async function insertUser(collections: Collections, doc: UserDoc): Promise<void> {
  await collections.users.insertOne(doc);
  await bumpUsersListing(collections);
}

export async function updateUserFields(
  collections: Collections,
  userId: ObjectId,
  fields: Partial<Omit<UserDoc, "_id">>,
): Promise<UserDoc | null> {
  const updated = await collections.users.findOneAndUpdate(
    { _id: userId },
    { $set: fields },
    { returnDocument: "after" },
  );
  await bumpListingsOfUserWrite(collections, userId, fields, updated !== null);
  return updated;
}

/** Undoes a sign-up's own user (its account could not be stored): then its claim and timeline entry. */
export async function deleteUserById(collections: Collections, userId: ObjectId): Promise<void> {
  const user = await collections.users.findOneAndDelete({ _id: userId });
  if (!user) return;
  // A sign-up's own user taken back: it is in no organization yet.
  await bumpUsersListing(collections);
  await releaseEmail(collections, user.email, userId);
  await removeFromTimeline(collections, user);
}

/**
 * A deletion's write of the user row, then its address claim and timeline entry and the listings
 * that showed it. True when this call removed the row (false when a concurrent deletion got there
 * first: then nothing else is done, unless `finishing` — a deletion a crash cut short, whose row may
 * be gone already while its claim and entry are not; the claim only while it is still this user's).
 */
export async function deleteUserRow(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "email" | "createdAt">,
  finishing = false,
): Promise<boolean> {
  const removed = (await collections.users.deleteOne({ _id: user._id })).deletedCount === 1;
  if (!removed && !finishing) return false;
  await bumpListingsOfUserRemoval(collections, user._id);
  await releaseEmail(collections, user.email, user._id);
  await removeFromTimeline(collections, user);
  return removed;
}

export function findUserById(collections: Collections, userId: ObjectId): Promise<UserDoc | null> {
  return findFirst(collections.users, { _id: userId });
}

/**
 * Compare-and-set write on a user (FerretDB has no transactions): applies `fields` only while the
 * user still has `expectedEmail` (and, when given, `expectedVerified`). Null when the user is gone or
 * no longer matches — a concurrent verification or email change won. Throws the driver's duplicate
 * key error when `fields.email` belongs to another user (the unique index settles races).
 */
async function updateUserWhereEmail(
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
 * Writes `fields` to the user, moving its address claim when `fields.email` is another address: the
 * new address is claimed first ("taken" when another user holds it), the old claim goes once the
 * user holds the new one, and the new one goes back when the user was not written; when the write
 * throws (the unique email index refused it), the new claim goes to whoever holds the address and
 * the error stands. With `where`, a compare-and-set on the address the caller saw (and on
 * `emailVerified` when given; updateUserWhereEmail). Null when the user is gone (or no longer matches).
 */
export async function updateUserMovingAddress(
  collections: Collections,
  user: Pick<UserDoc, "_id" | "email">,
  fields: Partial<Omit<UserDoc, "_id" | "createdAt">>,
  now: Date,
  where?: { emailVerified?: boolean },
): Promise<UserDoc | null | "taken"> {
  // docs/scale.md: of users moving to one address, the claim lets one win.
  const moving = fields.email !== undefined && fields.email !== user.email ? fields.email : undefined;
  if (moving !== undefined && !(await claimEmail(collections, moving, user._id, now))) return "taken";
  let updated: UserDoc | null;
  try {
    updated =
      where === undefined
        ? await updateUserFields(collections, user._id, fields)
        : await updateUserWhereEmail(collections, user._id, user.email, where.emailVerified, fields);
  } catch (error) {
    if (moving !== undefined) await repairEmailClaim(collections, moving, now);
    throw error;
  }
  if (moving !== undefined) await releaseEmail(collections, updated ? user.email : moving, user._id);
  return updated;
}

/** The fields a member list shows of each user (organization listings, members/types.ts MemberUser). */
export type MemberUserFields = Pick<UserDoc, "_id" | "name" | "email" | "image">;

/** The shown fields of the users of `ids` that exist (one `$in` read by `_id`). */
export function findMemberUsers(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<MemberUserFields[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return findPage(collections.users, memberUsersQuery(ids));
}

/** findMemberUsers, its documents left as BSON (db/raw-page.ts); at least one id. */
export function findMemberUsersRaw(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<RawPage<MemberUserFields>> {
  return findRawPage(collections.users, memberUsersQuery(ids));
}

function memberUsersQuery(ids: readonly ObjectId[]): PageQuery<UserDoc> {
  return {
    filter: { _id: { $in: [...ids] } },
    projection: { name: 1, email: 1, image: 1 },
    limit: ids.length,
  };
}

/** How many users match (admin list-users' total, the dashboard's counts). */
export function countUsers(collections: Collections, filter: Filter<UserDoc>): Promise<number> {
  return collections.users.countDocuments(filter);
}

/** A page of admin list-users: the users `filter` matches, in `page`'s order. */
export function findUsersPage(
  collections: Collections,
  filter: Filter<UserDoc>,
  page: { sort: Record<string, 1 | -1>; offset: number; limit: number },
): Promise<UserDoc[]> {
  return collections.users.find(filter).sort(page.sort).skip(page.offset).limit(page.limit).toArray();
}

/**
 * One page of the users' timeline (docs/scale.md) in `direction`: the entries' `_id`s only (each
 * ends with its user's id, db/ids.ts userIdOfTimelineId), with the users' and the entries' counts.
 */
export async function findTimelinePage(
  collections: Collections,
  direction: 1 | -1,
  offset: number,
  limit: number,
): Promise<{ entryIds: string[]; users: number; entries: number }> {
  // findPage (db/find-page.ts): each page is one reply decoded once, not a cursor's per-document views.
  const [page, users, entries] = await Promise.all([
    findPage(collections.userTimeline, {
      filter: { _id: TIMELINE_RANGE },
      sort: { _id: direction },
      skip: offset,
      limit,
      projection: { _id: 1 },
    }),
    collections.users.estimatedDocumentCount(),
    collections.userTimeline.estimatedDocumentCount(),
  ]);
  return { entryIds: page.map((entry) => entry._id), users, entries };
}

/** The users of `ids` that exist, in no order (one `$in` read by `_id`; at least one id). */
export function findUsersByIds(collections: Collections, ids: readonly ObjectId[]): Promise<UserDoc[]> {
  return findPage(collections.users, { filter: { _id: { $in: [...ids] } }, limit: ids.length });
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

/** Users per stored role value (comma separated, or absent → null), as the database groups them. */
export async function countUsersByStoredRole(
  collections: Collections,
): Promise<{ role: string | null; count: number }[]> {
  const groups = await collections.users
    .aggregate<{ _id: unknown; count: number }>([{ $group: { _id: "$role", count: { $sum: 1 } } }])
    .toArray();
  return groups.map((group) => ({
    role: typeof group._id === "string" ? group._id : null,
    count: group.count,
  }));
}

/**
 * When each user created at or after `from` signed up; nothing else of them (indexed: createdAt).
 * Read bare rather than counted per day: FerretDB v1 has $group but no date operators
 * ($dateToString, $dateTrunc: "not implemented"), and it scans for a range count, so one count per
 * day cost 30 scans (2.5 s for 1,500 users, measured) where one read of the dates costs one (0.1 s).
 */
export async function findSignUpDatesSince(collections: Collections, from: Date): Promise<Date[]> {
  const rows = await collections.users
    .find({ createdAt: { $gte: from } }, { projection: { _id: 0, createdAt: 1 } })
    .toArray();
  return rows.map((row) => row.createdAt);
}
