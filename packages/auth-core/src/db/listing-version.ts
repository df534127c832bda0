import type { Db, ObjectId } from "mongodb";
import { type Collections, openCollections } from "./collections.ts";
import { isDuplicateKeyError } from "./connect.ts";
import { findFirst } from "./find-page.ts";

/**
 * An organization's listing version (`OrganizationDoc.listingVersion`): get-full-organization keeps
 * the lists it answered — the members with their users' public fields, the invitations — in memory
 * under the version it read before reading them (db/listing-cache.ts),
 * and serves them again only while the organization document still carries that version. So every
 * write that changes what those lists show bumps the version of each organization concerned, after
 * the write, inside the owner's write function (features/organization/members/store.ts and
 * invitations/store.ts; the users' stores through bumpListingsOfUserWrite and
 * bumpListingsOfUserRemoval), never in a caller, so no write path can forget it. This module owns
 * the `listingVersions` collection and the organizations' `listingVersion` field; the users side
 * reaches the organizations here because it cannot import the organization feature (which imports
 * users).
 *
 * A version missing on a document (one written before the field existed) reads as 0; `$inc`
 * creates it. A crash between a write and its bump leaves a listing that may be served for the
 * cache's maximum age (5 s by default) on servers that held it; the caller's membership is read
 * from the database on every request regardless.
 */
export async function bumpListings(collections: Collections, ids: readonly ObjectId[]): Promise<void> {
  if (ids.length === 0) return;
  const update = { $inc: { listingVersion: 1 } };
  await afterWrite(() =>
    ids.length === 1
      ? collections.organizations.updateOne({ _id: ids[0] as ObjectId }, update)
      : collections.organizations.updateMany({ _id: { $in: [...ids] } }, update),
  );
}

/**
 * Every bump runs after a write that succeeded, and must not turn it into an error: the callers
 * undo a write that throws (a sign-up's claim and account, an address move's claim), or answer
 * that it failed. So a bump that fails — the database gone for a moment — is let go: a listing
 * that misses this write is served for at most the cache's maximum age, as after a crash between
 * the two.
 */
async function afterWrite(bump: () => Promise<unknown>): Promise<void> {
  try {
    await bump();
  } catch {
    // Bounded by maxAgeSeconds (db/listing-cache.ts), like a crash between the write and this.
  }
}

/**
 * After the user row's deletion: the organizations whose member lists name the user (its member
 * rows, the `userId` index), one `distinct`.
 */
export async function bumpListingsOfUser(collections: Collections, userId: ObjectId): Promise<void> {
  await afterWrite(async () =>
    bumpListings(collections, await collections.members.distinct("organizationId", { userId })),
  );
}

/**
 * After a write of `fields` to the user (`written`: the write matched): every write shows in admin
 * list-users; only the fields a member list shows (members/types.ts MemberUser) concern the user's
 * organizations.
 */
export async function bumpListingsOfUserWrite(
  collections: Collections,
  userId: ObjectId,
  fields: object,
  written: boolean,
): Promise<void> {
  if (!written) return;
  await bumpUsersListing(collections);
  if ("name" in fields || "email" in fields || "image" in fields)
    await bumpListingsOfUser(collections, userId);
}

/** After the user row's deletion: admin list-users, and the organizations whose member lists name it. */
export async function bumpListingsOfUserRemoval(collections: Collections, userId: ObjectId): Promise<void> {
  await bumpUsersListing(collections);
  await bumpListingsOfUser(collections, userId);
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
 * After a write to users or their timeline, by the users store and every other writer (the
 * deletion and verification stores; the CLI through `bumpUsersListings`). The first bump creates
 * the document; two first bumps at once meet the `_id` index, and the loser bumps the winner's.
 */
export async function bumpUsersListing(collections: Collections): Promise<void> {
  const bump = () =>
    collections.listingVersions.updateOne({ _id: USERS }, { $inc: { version: 1 } }, { upsert: true });
  await afterWrite(async () => {
    try {
      await bump();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await bump();
    }
  });
}

/** After writing users or their timeline straight into the database (the CLI, the demo's seed). */
export async function bumpUsersListings(db: Db): Promise<void> {
  await bumpUsersListing(openCollections(db));
}
