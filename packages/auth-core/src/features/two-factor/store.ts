import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { TwoFactorDoc, VerificationDoc } from "../../db/documents.ts";
import { verificationIdOf } from "../../db/ids.ts";
import { startsWith } from "../../db/prefix.ts";

/**
 * The only file of features/two-factor that talks to MongoDB: the `twoFactors` document (unique
 * `userId`) and the feature's rows in `verifications` (unique `identifier`, see rules.ts). FerretDB
 * v1 does not serialise concurrent compare-and-set updates, so every race here is decided by a unique
 * insert (`insertRow`, `claimSlot`) or by a delete count (`deleteRowById`).
 */

export function findTwoFactor(collections: Collections, userId: ObjectId): Promise<TwoFactorDoc | null> {
  return collections.twoFactors.findOne({ userId });
}

/**
 * Writes the user's (unconfirmed) enrollment, replacing an earlier unconfirmed one. Two concurrent
 * enrollments of one user: the unique index lets one insert, the other then replaces it — the
 * last one written is the one a first TOTP code confirms.
 */
export async function saveTwoFactor(collections: Collections, doc: TwoFactorDoc): Promise<void> {
  const { _id, ...fields } = doc;
  try {
    await collections.twoFactors.replaceOne({ userId: doc.userId }, fields, { upsert: true });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await collections.twoFactors.replaceOne({ userId: doc.userId }, fields);
  }
}

export async function markTwoFactorVerified(
  collections: Collections,
  id: ObjectId,
  now: Date,
): Promise<void> {
  await collections.twoFactors.updateOne({ _id: id }, { $set: { verified: true, updatedAt: now } });
}

export async function replaceBackupCodes(
  collections: Collections,
  id: ObjectId,
  backupCodes: string,
  backupCodesBatch: string,
  now: Date,
): Promise<boolean> {
  const result = await collections.twoFactors.updateOne(
    { _id: id },
    { $set: { backupCodes, backupCodesBatch, updatedAt: now } },
  );
  return result.matchedCount === 1;
}

export async function deleteTwoFactor(collections: Collections, userId: ObjectId): Promise<void> {
  await collections.twoFactors.deleteOne({ userId });
}

/** Inserts a row under a unique identifier; false when it exists already (the race was lost). */
export async function insertRow(
  collections: Collections,
  identifier: string,
  value: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const doc: VerificationDoc = {
    _id: verificationIdOf(identifier),
    identifier,
    value,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await collections.verifications.insertOne(doc);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** The row, expired or not (the caller tells expiry apart from absence). */
export function findRow(collections: Collections, identifier: string): Promise<VerificationDoc | null> {
  return collections.verifications.findOne({
    _id: verificationIdOf(identifier),
    identifier: { $eq: identifier },
  });
}

/** Of any number of concurrent deletes of one row, exactly one returns true. */
export async function deleteRowById(collections: Collections, id: ObjectId): Promise<boolean> {
  const { deletedCount } = await collections.verifications.deleteOne({ _id: id });
  return deletedCount === 1;
}

export async function deleteRow(collections: Collections, identifier: string): Promise<void> {
  await collections.verifications.deleteOne({
    _id: verificationIdOf(identifier),
    identifier: { $eq: identifier },
  });
}

/** The rows under a prefix: a range of the `identifier` index (db/prefix.ts). */
function withPrefix(prefix: string) {
  return { identifier: startsWith(prefix) };
}

export async function deleteRowsWithPrefix(collections: Collections, prefix: string): Promise<number> {
  const { deletedCount } = await collections.verifications.deleteMany(withPrefix(prefix));
  return deletedCount;
}

/** One command for several prefixes (each branch of the `$or` a range of the index). */
export async function deleteRowsWithPrefixes(collections: Collections, prefixes: string[]): Promise<number> {
  const { deletedCount } = await collections.verifications.deleteMany({ $or: prefixes.map(withPrefix) });
  return deletedCount;
}

/** The rows under a prefix: their identifiers and when they were written (at most `limit`). */
export function findRowsWithPrefix(
  collections: Collections,
  prefix: string,
  limit: number,
): Promise<Pick<VerificationDoc, "identifier" | "createdAt">[]> {
  return collections.verifications
    .find(withPrefix(prefix), { projection: { _id: 0, identifier: 1, createdAt: 1 } })
    .limit(limit)
    .toArray();
}

/**
 * Claims one of the slots `<prefix>1` … `<prefix><max>`: true when this call inserted one, false when
 * all are taken. A slot is a unique row, so however many calls race, at most `max` ever succeed —
 * an exact limit on every backend (a counter updated with `$inc` is not, on FerretDB v1). One read,
 * then inserts from the lowest free slot; a lost insert moves on to the next.
 */
export async function claimSlot(
  collections: Collections,
  prefix: string,
  max: number,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const taken = await collections.verifications
    .find(withPrefix(prefix), { projection: { identifier: 1 } })
    .limit(max)
    .toArray();
  const used = new Set(taken.map((row) => row.identifier));
  for (let slot = 1; slot <= max; slot++) {
    const identifier = `${prefix}${slot}`;
    if (used.has(identifier)) continue;
    if (await insertRow(collections, identifier, "", expiresAt, now)) return true;
  }
  return false;
}
