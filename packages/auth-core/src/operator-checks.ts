/**
 * What `tessera doctor` reads and repairs, re-exported by operator.ts: each check asks the owner of
 * the collections it looks at, and a repair goes through that owner's write, so what must follow it
 * (the users' listing bump after a claim or a timeline entry is written) follows there.
 */
import { accountRowsForChecks } from "./db/accounts.ts";
import { type Collections, openCollections } from "./db/collections.ts";
import { parseId } from "./db/ids.ts";
import type { RemovableRows, StoredRows } from "./db/stored-rows.ts";
import { apiKeyRowsForChecks } from "./features/api-key/index.ts";
import { type ImportedOrganizationRows, readOrganizationRows } from "./features/organization/index.ts";
import { passkeyRowsForChecks } from "./features/passkey/index.ts";
import { pendingDeletionRowsForChecks } from "./features/pending-deletions/index.ts";
import { clearStaleActiveOrganizations, sessionRowsForChecks } from "./features/session/index.ts";
import { twoFactorRowsForChecks } from "./features/two-factor/index.ts";
import {
  type EmailClaimGaps,
  findTimelineGaps,
  repairEmailClaims,
  repairUserTimeline,
  userRowsForChecks,
} from "./features/users/index.ts";
import type { Db } from "./operator-import.ts";

export type { StoredRows } from "./db/stored-rows.ts";

/** The rows whose deletes need nothing after them: `tessera doctor --fix` deletes those of gone users. */
const REMOVABLE = {
  sessions: sessionRowsForChecks,
  accounts: accountRowsForChecks,
  apiKeys: apiKeyRowsForChecks,
  twoFactors: twoFactorRowsForChecks,
  passkeys: passkeyRowsForChecks,
} satisfies Record<string, (collections: Collections) => RemovableRows>;

export type RemovableCollection = keyof typeof REMOVABLE;

/** The collections an operator's checks and import read. */
export type CheckedCollection =
  | "users"
  | "pendingDeletions"
  | RemovableCollection
  | keyof ImportedOrganizationRows;

/** One collection's rows for an operator's reads (`tessera doctor`, `tessera import`), from its owner. */
export function readStoredRows(db: Db, collection: CheckedCollection): StoredRows {
  const collections = openCollections(db);
  if (collection === "users") return userRowsForChecks(collections);
  if (collection === "pendingDeletions") return pendingDeletionRowsForChecks(collections);
  if (Object.hasOwn(REMOVABLE, collection)) return REMOVABLE[collection as RemovableCollection](collections);
  return readOrganizationRows(collections, collection as keyof ImportedOrganizationRows);
}

/**
 * `tessera doctor --fix`: deletes the rows of `collection` whose `userId` is one of `userIds` (users
 * that no longer exist). Answers how many went. Organization rows go through deleteOrganizationRows.
 */
export function deleteRowsOfMissingUsers(
  db: Db,
  collection: RemovableCollection,
  userIds: readonly unknown[],
): Promise<number> {
  return REMOVABLE[collection](openCollections(db)).deleteWhereIn("userId", userIds);
}

/** `tessera doctor --fix`: the sessions (hex ids) whose active organization is stale get none. */
export function clearActiveOrganizations(db: Db, sessionIds: readonly string[]): Promise<number> {
  const ids = sessionIds.map(parseId).filter((id) => id !== null);
  return clearStaleActiveOrganizations(openCollections(db), ids);
}

export type { EmailClaimGaps } from "./features/users/index.ts";

/**
 * The users' address claims against the users (docs/scale.md: a user is found by email through its
 * claim), and with `fix` repaired: every user's address claimed, the stale claims deleted.
 */
export function checkEmailClaims(db: Db, fix: boolean): Promise<EmailClaimGaps> {
  return repairEmailClaims(openCollections(db), fix, new Date());
}

export interface TimelineGaps {
  /** Hex ids of users missing from the timeline admin list-users reads. */
  usersWithoutEntry: string[];
  /** Settled timeline entries (older than a minute) whose user is gone. */
  entriesWithoutUser: string[];
  /** With `fix`: entries written and removed by the timeline's repair (the same one cleanup runs). */
  entered: number;
  removed: number;
}

/** The users' timeline against the users (docs/scale.md), and with `fix` put right. */
export async function checkUserTimeline(db: Db, fix: boolean): Promise<TimelineGaps> {
  const collections = openCollections(db);
  const now = new Date();
  const gaps = await findTimelineGaps(collections, now);
  const nothing = gaps.usersWithoutEntry.length === 0 && gaps.entriesWithoutUser.length === 0;
  const repaired = fix && !nothing ? await repairUserTimeline(collections, now) : { entered: 0, removed: 0 };
  return {
    usersWithoutEntry: gaps.usersWithoutEntry.map((id) => id.toHexString()),
    entriesWithoutUser: gaps.entriesWithoutUser,
    ...repaired,
  };
}
