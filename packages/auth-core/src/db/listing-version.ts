import type { Collections } from "./collections.ts";
import { findFirst } from "./find-page.ts";
import { upsertRetryingRace } from "./upsert.ts";

/**
 * The listing versions that keep the two listing caches (db/listing-cache.ts) correct. Admin
 * list-users serves a page it answered under the users' version (`listingVersions` "users", owned
 * here) while it holds; get-full-organization serves an organization's lists under the
 * organization's own `listingVersion`, which its owner bumps (features/organization/organizations/
 * store.ts bumpListings). Every bump runs after its write, inside the owner's write function, never
 * in a caller, so no write path can forget it. A crash between a write and its bump leaves a
 * listing that may be served for the cache's maximum age (5 s by default) on servers that held it.
 */

/**
 * Every bump runs after a write that succeeded, and must not turn it into an error: the callers
 * undo a write that throws (a sign-up's claim and account, an address move's claim), or answer
 * that it failed. So a bump that fails — the database gone for a moment — is let go: a listing
 * that misses this write is served for at most the cache's maximum age, as after a crash between
 * the two.
 */
export async function runListingBump(bump: () => Promise<unknown>): Promise<void> {
  try {
    await bump();
  } catch {
    // Bounded by maxAgeSeconds (db/listing-cache.ts), like a crash between the write and this.
  }
}

/** The listing version of every user (`ListingVersionDoc` "users"). */
const USERS = "users";

/**
 * The users' listing version: admin list-users serves a page it answered under it while it holds
 * (db/listing-cache.ts). Read before the page's own reads.
 */
export async function readUsersListingVersion(collections: Collections): Promise<number> {
  const doc = await findFirst(collections.listingVersions, { _id: { $eq: USERS } });
  return doc?.version ?? 0;
}

/**
 * After a write to users, their claims or their timeline, by their owners' write functions
 * (features/users/store.ts, claims-store.ts) and the timeline's repair (repairs.ts). The first bump creates
 * the document; two first bumps at once meet the `_id` index, and the loser bumps the winner's
 * (db/upsert.ts).
 */
export async function bumpUsersListing(collections: Collections): Promise<void> {
  await runListingBump(() =>
    upsertRetryingRace(() =>
      collections.listingVersions.updateOne({ _id: USERS }, { $inc: { version: 1 } }, { upsert: true }),
    ),
  );
}
