import type { Collections } from "../../db/collections.ts";
import type { VerificationDoc } from "../../db/documents.ts";
import {
  claimVerificationSlot,
  deleteVerification,
  findVerification,
  findVerificationRow,
  insertVerificationIfAbsent,
  replaceVerifications,
} from "../../db/verifications.ts";

/**
 * The only file of features/passwordless that talks to MongoDB. Its rows live in `verifications`
 * (owner: db/verifications.ts) under the identifiers of rules.ts. FerretDB v1 does not serialise
 * concurrent compare-and-set updates, so every race that must have one winner is decided by a
 * unique insert or a delete count.
 */

/**
 * Replaces the record of an identifier with a new one, and with a link writes the link's row
 * pointing at it (value: the record's identifier), in one command: the old link and code stop
 * working. Of concurrent requests the last write stands, as of requests one after the other. The
 * link's identifier is a fresh token's hash, so its upsert only ever inserts.
 */
export async function replaceRecord(
  collections: Collections,
  record: { identifier: string; value: string },
  linkIdentifier: string | null,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  const rows = [{ ...record, expiresAt }];
  if (linkIdentifier !== null) rows.push({ identifier: linkIdentifier, value: record.identifier, expiresAt });
  await replaceVerifications(collections, rows, now);
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
 * Claims one of a code's tries: the slot's identifier (given back with deleteRow when the try must
 * not count), null when all are used (then the code is dead, whatever is typed). The first try,
 * nearly every sign-in's only one, takes its slot with a single unique insert; a later try looks for
 * a free slot (the slots are claimVerificationSlot's `<prefix>1…<prefix>max`).
 */
export async function claimAttempt(
  collections: Collections,
  prefix: string,
  max: number,
  expiresAt: Date,
  now: Date,
): Promise<string | null> {
  const first = `${prefix}1`;
  if (await insertVerificationIfAbsent(collections, first, "", expiresAt, now)) return first;
  return claimVerificationSlot(collections, prefix, max, expiresAt, now);
}
