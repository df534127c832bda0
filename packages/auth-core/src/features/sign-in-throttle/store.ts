import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import { verificationIdOf } from "../../db/ids.ts";
import { startsWith } from "../../db/prefix.ts";
import { MAX_CONSECUTIVE_FAILURES } from "./rules.ts";

/**
 * The only file of the throttle that talks to MongoDB: its rows in `verifications` (unique
 * `identifier`, rules.ts). Every race is decided by a unique insert — FerretDB v1 loses concurrent
 * `$inc`/compare-and-set updates, but never lets two inserts of one identifier both succeed.
 */

/** The rows under a prefix: a range of the `identifier` index (db/prefix.ts). */
const withPrefix = (prefix: string) => ({ identifier: startsWith(prefix) });

/** The lane's rows, identifier and time (a lane never holds more than the limit's worth). */
export function findLaneRows(
  collections: Collections,
  lanePrefix: string,
): Promise<{ identifier: string; createdAt: Date }[]> {
  // Slots are numbered from 1 and never pass the limit: the lane is these rows' `_id`s, one indexed
  // `$in` (verification ids follow from identifiers), not a scan of every verification.
  const identifiers = Array.from({ length: MAX_CONSECUTIVE_FAILURES + 1 }, (_, n) => `${lanePrefix}${n + 1}`);
  return collections.verifications
    .find(
      { _id: { $in: identifiers.map(verificationIdOf) }, identifier: { $in: identifiers } },
      { projection: { _id: 0, identifier: 1, createdAt: 1 } },
    )
    .toArray();
}

/** Inserts one slot row; false when another attempt claimed it first. */
export async function insertSlot(
  collections: Collections,
  identifier: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  try {
    await collections.verifications.insertOne({
      _id: verificationIdOf(identifier),
      identifier,
      value: "",
      expiresAt,
      createdAt: now,
      updatedAt: now,
    });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export async function deleteRowsWithPrefix(collections: Collections, prefix: string): Promise<void> {
  await collections.verifications.deleteMany(withPrefix(prefix));
}
