import type { Collections } from "../../db/collections.ts";
import {
  deleteVerificationsWithPrefixes,
  findVerificationTimes,
  insertVerificationIfAbsent,
} from "../../db/verifications.ts";
import { MAX_CONSECUTIVE_FAILURES } from "./rules.ts";

/**
 * The throttle's rows in `verifications` (unique `identifier`, rules.ts), kept through that
 * table's owner, db/verifications.ts. Every race is decided by a unique insert — FerretDB v1 loses
 * concurrent `$inc`/compare-and-set updates, but never lets two inserts of one identifier both
 * succeed.
 */

/** The lane's rows, identifier and time (a lane never holds more than the limit's worth). */
export function findLaneRows(
  collections: Collections,
  lanePrefix: string,
): Promise<{ identifier: string; createdAt: Date }[]> {
  // Slots are numbered from 1 and never pass the limit: the lane is these rows' `_id`s, one indexed
  // `$in` (verification ids follow from identifiers), not a scan of every verification.
  const identifiers = Array.from({ length: MAX_CONSECUTIVE_FAILURES + 1 }, (_, n) => `${lanePrefix}${n + 1}`);
  return findVerificationTimes(collections, identifiers);
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
