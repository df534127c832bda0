import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { TwoFactorDoc, VerificationDoc } from "../../db/documents.ts";
import { type RemovableRows, removableRowsOf } from "../../db/stored-rows.ts";
import { upsertRetryingRace } from "../../db/upsert.ts";
import {
  deleteVerification,
  deleteVerificationsWithPrefixes,
  findVerificationsWithPrefix,
} from "../../db/verifications.ts";

/**
 * The only file of features/two-factor that talks to MongoDB, and the owner of `twoFactors` (one
 * document per user, unique `userId`). FerretDB v1 does not serialise concurrent compare-and-set
 * updates, so every race here is decided by a unique insert (`insertRow`, `claimSlot`) or by a
 * delete count (`deleteRowById`).
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
  await upsertRetryingRace(() =>
    collections.twoFactors.replaceOne({ userId: doc.userId }, fields, { upsert: true }),
  );
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

/**
 * The feature's rows in `verifications` (unique `identifier`, see rules.ts), kept through that
 * table's owner, db/verifications.ts: inserts and delete counts decide every race there.
 */
export {
  claimVerificationSlot as claimSlot,
  deleteVerificationById as deleteRowById,
  deleteVerificationsWithPrefixes as deleteRowsWithPrefixes,
  findVerificationRow as findRow,
  insertVerificationIfAbsent as insertRow,
} from "../../db/verifications.ts";

export async function deleteRow(collections: Collections, identifier: string): Promise<void> {
  await deleteVerification(collections, identifier);
}

export function deleteRowsWithPrefix(collections: Collections, prefix: string): Promise<number> {
  return deleteVerificationsWithPrefixes(collections, [prefix]);
}

/** The rows under a prefix: their identifiers and when they were written (at most `limit`). */
export function findRowsWithPrefix(
  collections: Collections,
  prefix: string,
  limit: number,
): Promise<Pick<VerificationDoc, "identifier" | "createdAt">[]> {
  return findVerificationsWithPrefix(collections, prefix, limit);
}

/** `tessera doctor`'s view of the two-factor rows (db/stored-rows.ts). */
export function twoFactorRowsForChecks(collections: Collections): RemovableRows {
  return removableRowsOf(collections.twoFactors);
}
