import { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { insertManyIgnoringDuplicates, isDuplicateKeyError } from "../../db/connect.ts";
import {
  type AccountDoc,
  CREDENTIAL_PROVIDER_ID,
  type UserDoc,
  type UserTimelineDoc,
} from "../../db/documents.ts";
import { findFirst } from "../../db/find-page.ts";
import { keyedId, timelineIdOf } from "../../db/ids.ts";
import { bumpListingsOfUserWrite, bumpUsersListing } from "../../db/listing-version.ts";
import { enterEveryUser } from "../../db/migrations/0010-user-timeline.ts";

/**
 * An account's `_id` follows from its provider identity (db/ids.ts keyedId), so the lookups by
 * identity are lookups by `_id`; a credential account's identity is its user's id.
 */
export const accountIdOf = (providerId: string, accountId: string) =>
  keyedId("account", providerId, accountId);

/** The filter of a user's credential account: its `_id`, and the fields it follows from. */
const credentialOf = (userId: ObjectId) => ({
  _id: accountIdOf(CREDENTIAL_PROVIDER_ID, userId.toHexString()),
  userId,
  providerId: CREDENTIAL_PROVIDER_ID,
});

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

export function findCredentialAccount(
  collections: Collections,
  userId: ObjectId,
): Promise<AccountDoc | null> {
  return findFirst(collections.accounts, credentialOf(userId));
}

/**
 * Deletes the user's credential account: a sign-up's own when its user insert failed, or one a
 * crashed sign-up left for a user that never came (takeEmailClaim's `abandonedBy`).
 */
export async function deleteCredentialAccount(collections: Collections, userId: ObjectId): Promise<void> {
  await collections.accounts.deleteOne(credentialOf(userId));
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
    ...credentialOf(userId),
    passwordResetRequired: { $eq: true },
  });
  return result.deletedCount === 1;
}

export async function insertUser(collections: Collections, doc: UserDoc): Promise<void> {
  await collections.users.insertOne(doc);
  await bumpUsersListing(collections);
}

/** Inserts the account under the `_id` its identity gives (set on `doc`, whatever a hook left there). */
export async function insertAccount(collections: Collections, doc: AccountDoc): Promise<void> {
  doc._id = accountIdOf(doc.providerId, doc.accountId);
  await collections.accounts.insertOne(doc);
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

/** Accounts written in bulk under their keyed `_id`s (the bench's seeding, imports); duplicates are skipped. */
export async function insertAccountsInBulk(collections: Collections, docs: AccountDoc[]): Promise<void> {
  for (const doc of docs) doc._id = accountIdOf(doc.providerId, doc.accountId);
  await insertManyIgnoringDuplicates(collections.accounts, docs);
}

/** Deletes the user, then its address claim. */
export async function deleteUserById(collections: Collections, userId: ObjectId): Promise<void> {
  const user = await collections.users.findOneAndDelete({ _id: userId });
  if (!user) return;
  // A sign-up's own user taken back: it is in no organization yet.
  await bumpUsersListing(collections);
  await releaseEmail(collections, user.email, userId);
  await removeFromTimeline(collections, user);
}

export function findUserById(collections: Collections, userId: ObjectId): Promise<UserDoc | null> {
  return findFirst(collections.users, { _id: userId });
}
