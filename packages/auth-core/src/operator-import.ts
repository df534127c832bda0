/**
 * The writes of an operator's import (`tessera import`) and repair (`tessera doctor --fix`),
 * re-exported by operator.ts: rows the CLI read from another library and checked with
 * `createImportChecks` go into each collection through its owner's bulk insert, and rows a repair
 * removes go through their owner's delete, so what must follow them — address claims and timeline entries of users,
 * the listing versions of the organizations whose members or invitations changed — follows there.
 */
import { type Collections, openCollections } from "./db/collections.ts";
import type { AccountDoc, UserDoc } from "./db/documents.ts";

/** The Tessera database (the driver's `Db`). */
export type Db = Collections["db"];

import {
  deleteOrphanRows,
  type ImportedOrganizationRows,
  importOrganizationRows,
  type OrphanRows,
} from "./features/organization/index.ts";
import { insertAccountsInBulk, insertUsersInBulk } from "./features/users/index.ts";

/** The collections an import writes. */
export type ImportedCollection = "users" | "accounts" | keyof ImportedOrganizationRows;

/**
 * Writes `docs` (stored documents, each with its `_id`) into `collection` of the Tessera database
 * `db`, unordered; returns the positions refused as taken (a unique index, or for users an address
 * another user holds). Users get their address claim and timeline entry with them.
 */
export async function importRows(
  db: Db,
  collection: ImportedCollection,
  docs: readonly Record<string, unknown>[],
): Promise<Set<number>> {
  const collections = openCollections(db);
  if (collection === "users") {
    const written = await insertUsersInBulk(collections, docs as unknown as UserDoc[]);
    const ids = new Set(written.map((user) => user._id.toHexString()));
    return new Set(docs.flatMap((doc, index) => (ids.has(String(doc._id)) ? [] : [index])));
  }
  if (collection === "accounts") {
    // An account's `_id` is its provider identity's: one held already is found before the write.
    await insertAccountsInBulk(collections, docs as unknown as AccountDoc[]);
    return new Set();
  }
  return importOrganizationRows(
    collections,
    collection,
    docs as unknown as ImportedOrganizationRows[typeof collection][],
  );
}

export type { OrphanRows } from "./features/organization/index.ts";

/**
 * `tessera doctor --fix`: deletes the organization rows (members, invitations, teams, team
 * memberships) whose `field` is one of `values` through their owner, which bumps the listings they
 * were part of. Answers how many went.
 */
export function deleteOrganizationRows(
  db: Db,
  rows: OrphanRows,
  values: readonly unknown[],
): Promise<number> {
  return deleteOrphanRows(openCollections(db), rows, values);
}
