import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";

/**
 * The only file of features/mail-limit that talks to MongoDB, the owner of `mailLimits`: one
 * document per claimed slot, looked up by `_id` alone (FerretDB v1 scans a collection for any other
 * filter). Expired slots are removed by auth.cleanup().
 */

/**
 * Claims the first free slot of `ids`, one insert each, in order: its id, or null when none was
 * free. Of concurrent claims of one slot exactly one insert succeeds (duplicate key for the others,
 * which move on to the next slot), so `ids.length` claims at most succeed.
 */
export async function claimFirstFreeSlot(
  collections: Collections,
  ids: readonly string[],
  expiresAt: Date,
): Promise<string | null> {
  for (const _id of ids) {
    try {
      await collections.mailLimits.insertOne({ _id, expiresAt });
      return _id;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
  return null;
}

/** Gives a claimed slot back (a mail that was not sent after all). */
export async function releaseSlot(collections: Collections, id: string): Promise<void> {
  await collections.mailLimits.deleteOne({ _id: id });
}

/** `auth.cleanup()`: the slots whose window has ended at `now`. */
export async function deleteExpiredMailLimits(collections: Collections, now: Date): Promise<number> {
  const { deletedCount } = await collections.mailLimits.deleteMany({ expiresAt: { $lte: now } });
  return deletedCount;
}
