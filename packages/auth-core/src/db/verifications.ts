import type { ObjectId } from "mongodb";
import type { Collections } from "./collections.ts";
import { isDuplicateKeyError } from "./connect.ts";
import type { VerificationDoc } from "./documents.ts";
import { verificationIdOf } from "./ids.ts";
import { startsWith } from "./prefix.ts";
import { upsertRetryingRace } from "./upsert.ts";

/**
 * The owner of `verifications`, a table every feature keeps keyed rows in: one-time tokens
 * (reset-password:{…}, delete-account-{…}, features/verification), claims (invitations, refreshes,
 * used links), counted slots (two-factor, the sign-in throttle, the mail limit's lanes) and social
 * states. A row's `_id` follows from its identifier (db/ids.ts keyedId), so lookups are by `_id`.
 * FerretDB v1 does not serialise concurrent compare-and-set updates: every race here is decided by
 * a unique insert or a delete count.
 */

/** The filter of one row: its `_id`, and the identifier itself for exactness. */
const byIdentifier = (identifier: string) => ({
  _id: verificationIdOf(identifier),
  identifier: { $eq: identifier },
});

/** The rows under a prefix: a range of the `identifier` index (db/prefix.ts). */
const withPrefix = (prefix: string) => ({ identifier: startsWith(prefix) });

function verificationDoc(identifier: string, value: string, expiresAt: Date, now: Date): VerificationDoc {
  return { _id: verificationIdOf(identifier), identifier, value, expiresAt, createdAt: now, updatedAt: now };
}

/** Inserts a row; throws the driver's duplicate key error when the identifier exists. */
export async function createVerification(
  collections: Collections,
  identifier: string,
  value: string,
  expiresAt: Date,
  now: Date,
): Promise<VerificationDoc> {
  const doc = verificationDoc(identifier, value, expiresAt, now);
  await collections.verifications.insertOne(doc);
  return doc;
}

/**
 * Inserts a row under a unique identifier; false when it exists already (the race was lost): of any
 * number of concurrent inserts of one identifier exactly one succeeds, on every backend.
 */
export async function insertVerificationIfAbsent(
  collections: Collections,
  identifier: string,
  value: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  try {
    await collections.verifications.insertOne(verificationDoc(identifier, value, expiresAt, now));
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/**
 * Writes the rows, each replacing whatever its identifier held, in one command (an `update` of one
 * upsert by `_id` per row, unordered). Of concurrent writers of a row the last one's stands; a lost
 * insert race is retried once as the replacement it is (db/upsert.ts), which writes the same rows.
 */
export async function replaceVerifications(
  collections: Collections,
  rows: readonly { identifier: string; value: string; expiresAt: Date }[],
  now: Date,
): Promise<void> {
  const operations = rows.map(({ identifier, value, expiresAt }) => ({
    replaceOne: {
      filter: byIdentifier(identifier),
      replacement: verificationDoc(identifier, value, expiresAt, now),
      upsert: true,
    },
  }));
  await upsertRetryingRace(
    () => collections.verifications.bulkWrite(operations, { ordered: false }),
    operations.length,
  );
}

/** Reads without consuming; null when missing or expired. */
export function findVerification(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<VerificationDoc | null> {
  return collections.verifications.findOne({ ...byIdentifier(identifier), expiresAt: { $gt: now } });
}

/** The row, expired or not (the caller tells expiry apart from absence). */
export function findVerificationRow(
  collections: Collections,
  identifier: string,
): Promise<VerificationDoc | null> {
  return collections.verifications.findOne(byIdentifier(identifier));
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
 * Deletes the row of `identifier` — only while its value is `value` (a holder's own claim), or only
 * once it expired at `expiredAt` (a claim whose holder let it expire), when given. True when this
 * call removed it (a delete count: exact under concurrency).
 */
export async function deleteVerification(
  collections: Collections,
  identifier: string,
  only: { value?: string; expiredAt?: Date } = {},
): Promise<boolean> {
  const result = await collections.verifications.deleteOne({
    ...byIdentifier(identifier),
    ...(only.value === undefined ? {} : { value: { $eq: only.value } }),
    ...(only.expiredAt === undefined ? {} : { expiresAt: { $lte: only.expiredAt } }),
  });
  return result.deletedCount === 1;
}

/** Of any number of concurrent deletes of one row, exactly one returns true. */
export async function deleteVerificationById(collections: Collections, id: ObjectId): Promise<boolean> {
  const { deletedCount } = await collections.verifications.deleteOne({ _id: id });
  return deletedCount === 1;
}

/** One command for several prefixes (each branch of the `$or` a range of the index). */
export async function deleteVerificationsWithPrefixes(
  collections: Collections,
  prefixes: readonly string[],
): Promise<number> {
  const filter = prefixes.length === 1 ? withPrefix(prefixes[0]!) : { $or: prefixes.map(withPrefix) };
  const { deletedCount } = await collections.verifications.deleteMany(filter);
  return deletedCount;
}

/**
 * Deletes the rows whose identifier matches (a prefix, or a pattern) and whose value is `value` —
 * a user's outstanding tokens, whose value is the user id. Runs once per reset or deletion, so
 * scanning the matching rows by `value` is acceptable without an index on it.
 */
export async function deleteVerificationsWithValue(
  collections: Collections,
  identifier: string | RegExp,
  value: string,
): Promise<number> {
  const result = await collections.verifications.deleteMany({
    identifier: typeof identifier === "string" ? startsWith(identifier) : { $regex: identifier },
    value: { $eq: value },
  });
  return result.deletedCount;
}

/** The rows whose identifier starts with `prefix` (at most `limit`, when given). */
export function findVerificationsWithPrefix(
  collections: Collections,
  prefix: string,
  limit = 0,
): Promise<VerificationDoc[]> {
  return collections.verifications.find(withPrefix(prefix)).limit(limit).toArray();
}

/**
 * The identifiers and write times of the rows under `prefix` (at most `limit`, when given): one
 * range of the `identifier` index, however many rows it holds (no key to hash per possible row).
 */
export function findVerificationTimesWithPrefix(
  collections: Collections,
  prefix: string,
  limit = 0,
): Promise<{ identifier: string; createdAt: Date }[]> {
  return collections.verifications
    .find(withPrefix(prefix), { projection: { _id: 0, identifier: 1, createdAt: 1 } })
    .limit(limit)
    .toArray();
}

/**
 * Claims one of the slots `<prefix>1` … `<prefix><max>`: the identifier of the slot this call
 * inserted (its caller may give it back), null when all are taken. A slot is a unique row, so however many calls race, at most `max` ever succeed —
 * an exact limit on every backend (a counter updated with `$inc` is not, on FerretDB v1). One read,
 * then inserts from the lowest free slot; a lost insert moves on to the next.
 */
export async function claimVerificationSlot(
  collections: Collections,
  prefix: string,
  max: number,
  expiresAt: Date,
  now: Date,
): Promise<string | null> {
  const taken = await collections.verifications
    .find(withPrefix(prefix), { projection: { identifier: 1 } })
    .limit(max)
    .toArray();
  const used = new Set(taken.map((row) => row.identifier));
  for (let slot = 1; slot <= max; slot++) {
    const identifier = `${prefix}${slot}`;
    if (used.has(identifier)) continue;
    if (await insertVerificationIfAbsent(collections, identifier, "", expiresAt, now)) return identifier;
  }
  return null;
}

/** Sets fields on a live (unexpired) row; false when there is none. */
export async function setVerificationFields(
  collections: Collections,
  identifier: string,
  now: Date,
  fields: Record<string, string>,
): Promise<boolean> {
  const result = await collections.verifications.updateOne(
    { ...byIdentifier(identifier), expiresAt: { $gt: now } },
    { $set: fields },
  );
  return result.matchedCount === 1;
}

/** `auth.cleanup()`: the rows expired at `now` (reads already ignore them). */
export async function deleteExpiredVerifications(collections: Collections, now: Date): Promise<number> {
  const { deletedCount } = await collections.verifications.deleteMany({ expiresAt: { $lte: now } });
  return deletedCount;
}
