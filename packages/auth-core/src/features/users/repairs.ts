import type { Collections } from "../../db/collections.ts";
import type { UserDoc, UserTimelineDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { timelineIdOf } from "../../db/ids.ts";
import { bumpUsersListing } from "../../db/listing-version.ts";
import { deleteClaims, pointClaimsAt, readClaims } from "./claims-store.ts";
import { countAllUsers, findPresentUserIds, NOBODY, readUserAddresses, readUserSignUps } from "./store.ts";
import {
  addManyToTimeline,
  countTimelineEntries,
  readEntriesBefore,
  readEntryIds,
  removeTimelineEntries,
} from "./timeline-store.ts";

/**
 * The checks and repairs of the users' address claims and timeline against the users (cleanup,
 * `tessera doctor`), through the three owners' functions: they name no collection.
 */

const BATCH = 1000;

export interface EmailClaimGaps {
  /** The addresses of users without their claim (they are not found by email: cannot sign in). */
  unclaimed: string[];
  /** Claims whose user is gone or holds another address (harmless: the next claimer takes them over). */
  stale: string[];
  /** With `fix`: the claims written, and the stale ones deleted. */
  claimed: number;
  deleted: number;
}

/**
 * The claims checked against the users (`tessera doctor`), and with `fix` repaired: each user's
 * address claimed (which bumps the users' listing: claims-store.ts pointClaimsAt), the stale claims
 * deleted.
 */
export async function repairEmailClaims(
  collections: Collections,
  fix: boolean,
  now: Date,
): Promise<EmailClaimGaps> {
  const holders = new Map<string, ObjectId>();
  for await (const user of readUserAddresses(collections)) holders.set(user.email, user._id);
  const claimedAddresses = new Set<string>();
  const stale: string[] = [];
  for await (const claim of readClaims(collections)) {
    if (holders.get(claim._id)?.equals(claim.userId)) claimedAddresses.add(claim._id);
    else stale.push(claim._id);
  }
  const unclaimed = [...holders].filter(([email]) => !claimedAddresses.has(email));
  const gaps: EmailClaimGaps = {
    unclaimed: unclaimed.map(([email]) => email),
    stale,
    claimed: 0,
    deleted: 0,
  };
  if (!fix) return gaps;
  for (let start = 0; start < stale.length; start += BATCH)
    gaps.deleted += await deleteClaims(collections, stale.slice(start, start + BATCH));
  gaps.claimed = await pointClaimsAt(collections, unclaimed, now);
  return gaps;
}

/** A timeline entry younger than this may be a sign-up whose user insert is still on its way. */
const TIMELINE_SETTLE_MS = 60_000;

/**
 * Cleanup (features/cleanup.ts): when the timeline and the users differ in number, repairUserTimeline.
 * Answers how many entries it wrote or removed; nothing to do costs two counts.
 */
export async function reconcileUserTimeline(collections: Collections, now: Date): Promise<number> {
  const [users, entries] = await Promise.all([countAllUsers(collections), countTimelineEntries(collections)]);
  if (users === entries) return 0;
  const { entered, removed } = await repairUserTimeline(collections, now);
  return entered + removed;
}

/**
 * The timeline's one repair (cleanup, `tessera doctor --fix`): enters every user that has no entry
 * and removes the settled entries whose user is gone (a cut between the entry and the user insert,
 * or between the user delete and the entry's). Then the users' listing is bumped, once: which reads
 * answer list-users changed (the timeline's or the users collection's own). enterEveryUser does not
 * bump (migration 0010 runs it too, before any listing is read), so the bump is here.
 */
export async function repairUserTimeline(
  collections: Collections,
  now: Date,
): Promise<{ entered: number; removed: number }> {
  const entered = await enterEveryUser(collections);
  let removed = 0;
  let batch: UserTimelineDoc[] = [];
  const removeOrphans = async () => {
    const entries = batch;
    batch = [];
    const present = await findPresentUserIds(
      collections,
      entries.map((entry) => entry.userId),
    );
    // By the entries' own `_id`s (all settled: read below `settled`): an index read, not a scan.
    const orphans = entries
      .filter((entry) => !present.has(entry.userId.toHexString()))
      .map((entry) => entry._id);
    if (orphans.length === 0) return;
    removed += await removeTimelineEntries(collections, orphans);
  };
  for await (const entry of readEntriesBefore(collections, settledBefore(now))) {
    batch.push(entry);
    if (batch.length >= BATCH) await removeOrphans();
  }
  if (batch.length > 0) await removeOrphans();
  if (entered + removed > 0) await bumpUsersListing(collections);
  return { entered, removed };
}

/**
 * Enters every user that has no timeline entry; an entry already there is left as it is. Answers how
 * many it wrote. Also migration 0010 (db/migrations/0010-user-timeline.ts), which create-auth.ts
 * hands it: the timeline of a database from before the timeline.
 */
export async function enterEveryUser(collections: Collections): Promise<number> {
  let written = 0;
  let batch: Pick<UserDoc, "_id" | "createdAt">[] = [];
  for await (const user of readUserSignUps(collections)) {
    batch.push(user);
    if (batch.length < BATCH) continue;
    written += await addManyToTimeline(collections, batch);
    batch = [];
  }
  return written + (batch.length > 0 ? await addManyToTimeline(collections, batch) : 0);
}

/** Timeline ids below this are settled: no sign-up between its two writes can still own them. */
function settledBefore(now: Date): string {
  return timelineIdOf(new Date(now.getTime() - TIMELINE_SETTLE_MS), NOBODY);
}

/**
 * What repairUserTimeline would change, without writing (`tessera doctor`): the users without an
 * entry, and the settled entries whose user is gone.
 */
export async function findTimelineGaps(
  collections: Collections,
  now: Date,
): Promise<{ usersWithoutEntry: ObjectId[]; entriesWithoutUser: string[] }> {
  const expected = new Map<string, ObjectId>();
  for await (const user of readUserSignUps(collections))
    if (user.createdAt instanceof Date) expected.set(timelineIdOf(user.createdAt, user._id), user._id);
  const settled = settledBefore(now);
  const entriesWithoutUser: string[] = [];
  for await (const entry of readEntryIds(collections)) {
    if (expected.delete(entry._id)) continue;
    if (entry._id < settled) entriesWithoutUser.push(entry._id);
  }
  return { usersWithoutEntry: [...expected.values()], entriesWithoutUser };
}
