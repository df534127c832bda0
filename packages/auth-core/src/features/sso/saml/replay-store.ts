import type { Collections } from "../../../db/collections.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import { ObjectId } from "../../../db/ids.ts";

/**
 * The owner of `samlReplays`: the assertion IDs already used to sign in, each kept until its
 * assertion could no longer be accepted anyway (its NotOnOrAfter plus the clock skew). SAML
 * profiles §4.1.4.5: a bearer assertion is used once. The unique index on (issuer, assertionId)
 * (migration 0015) decides concurrent uses: of two ACS posts of one assertion exactly one inserts.
 */

/**
 * Records the use of an assertion; false when it was used before (a replay). An expired row still
 * refuses: by then the assertion's own validity window refuses it too.
 */
export async function recordAssertionUse(
  collections: Collections,
  use: { issuer: string; assertionId: string; providerId: string; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  try {
    await collections.samlReplays.insertOne({ _id: new ObjectId(), ...use, createdAt: now });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** `auth.cleanup()`: the assertion IDs whose assertions have expired at `now`. */
export async function deleteExpiredSamlReplays(collections: Collections, now: Date): Promise<number> {
  const { deletedCount } = await collections.samlReplays.deleteMany({ expiresAt: { $lte: now } });
  return deletedCount;
}
