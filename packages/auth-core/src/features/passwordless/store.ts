import type { Collections } from "../../db/collections.ts";
import type { VerificationDoc } from "../../db/documents.ts";
import {
  deleteVerification,
  findVerification,
  findVerificationRow,
  insertVerificationIfAbsent,
  replaceVerification,
} from "../../db/verifications.ts";

/**
 * The only file of features/passwordless that talks to MongoDB. Its rows live in `verifications`
 * (owner: db/verifications.ts) under the identifiers of rules.ts. FerretDB v1 does not serialise
 * concurrent compare-and-set updates, so every race that must have one winner is decided by a
 * unique insert or a delete count.
 */

/**
 * Replaces the record of an identifier with a new one, in one command: its link and code stop
 * working. Of concurrent requests the last write stands, as of requests one after the other.
 */
export async function replaceRecord(
  collections: Collections,
  identifier: string,
  value: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await replaceVerification(collections, identifier, value, expiresAt, now);
}

/** The link's row pointing at its record (value: the record's identifier). */
export async function storeLink(
  collections: Collections,
  identifier: string,
  recordId: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await insertVerificationIfAbsent(collections, identifier, recordId, expiresAt, now);
}

/** A live (unexpired) row; null when missing or expired. */
export function findLiveRow(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<VerificationDoc | null> {
  return findVerification(collections, identifier, now);
}

/** The row, expired or not (an expired code is told apart from none). */
export function findAnyRow(collections: Collections, identifier: string): Promise<VerificationDoc | null> {
  return findVerificationRow(collections, identifier);
}

/**
 * Takes the record as it was read: of any number of concurrent uses exactly one gets true (a delete
 * count), and none once a newer request replaced it.
 */
export function takeRecord(collections: Collections, row: VerificationDoc): Promise<boolean> {
  return deleteVerification(collections, row.identifier, { value: row.value });
}

export async function deleteRow(collections: Collections, identifier: string): Promise<void> {
  await deleteVerification(collections, identifier);
}

/**
 * Puts a taken record back (checks.ts: after its code was compared), as `value`, until the row's
 * own expiry: false when the identifier holds a row again — a newer mail's record, which stands.
 */
export function restoreRecord(
  collections: Collections,
  row: VerificationDoc,
  value: string,
  now: Date,
): Promise<boolean> {
  return insertVerificationIfAbsent(collections, row.identifier, value, row.expiresAt, now);
}
