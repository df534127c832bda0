import type { Collections } from "../../db/collections.ts";
import {
  deleteVerificationsWithPrefixes,
  findVerificationTimesWithPrefix,
  insertVerificationIfAbsent,
} from "../../db/verifications.ts";

/**
 * The throttle's rows in `verifications` (unique `identifier`, rules.ts), kept through that
 * table's owner, db/verifications.ts. Every race is decided by a unique insert — FerretDB v1 loses
 * concurrent `$inc`/compare-and-set updates, but never lets two inserts of one identifier both
 * succeed.
 */

/** The rows under `prefix` (a lane, or every lane of an account), identifier and time. */
export function findLaneRows(
  collections: Collections,
  prefix: string,
): Promise<{ identifier: string; createdAt: Date }[]> {
  // A range of the identifier index (db/prefix.ts), answered from it by MongoDB and by the embedded
  // FerretDB alike: it costs no hash per possible slot, as an `$in` of the slots' `_id`s did.
  return findVerificationTimesWithPrefix(collections, prefix);
}

/** Inserts one slot row; false when another attempt claimed it first. */
export function insertSlot(
  collections: Collections,
  identifier: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  return insertVerificationIfAbsent(collections, identifier, "", expiresAt, now);
}

export async function deleteRowsWithPrefix(collections: Collections, prefix: string): Promise<void> {
  await deleteVerificationsWithPrefixes(collections, [prefix]);
}
