import { randomUUID } from "node:crypto";
import type { Collection } from "mongodb";
import { isDuplicateInsertError, isDuplicateKeyError } from "./connect.ts";

/** One claim of a leased row: `<row id>|<n>`, held by `owner` until `until`. */
export interface LeaseClaimDoc {
  _id: string;
  owner: string;
  until: Date;
  /** The claimLeases call that wrote it: how that call tells its own claims from others'. */
  call?: string;
}

/**
 * Claims the row `key` for `owner` until `until`: the insert of `<key>|<n>` into `claims`, the one
 * write FerretDB v1 applies atomically (docs/security.md "Webhooks": a filtered update or
 * findAndModify there reads, then writes by `_id`, so two instances could both "win" it). `n` starts
 * at the row's count of claims so far; a claim already taken whose lease has ended (its holder died
 * before it recorded anything) is stepped over to `n + 1`. Returns the claim number this owner took,
 * null when a live claim of another owner holds the row. claimLeases' way for a row whose batch
 * claim was taken; its callers (features/webhooks/store.ts, features/mail-outbox/store.ts) then
 * write the lease and `n + 1` into each row.
 */
async function claimLease(
  claims: Collection<LeaseClaimDoc>,
  key: string,
  from: number,
  owner: string,
  now: Date,
  until: Date,
): Promise<number | null> {
  for (let claim = from; ; claim++) {
    const _id = `${key}|${claim}`;
    try {
      await claims.insertOne({ _id, owner, until });
      return claim;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const taken = await claims.findOne({ _id });
      if (!taken || taken.until.getTime() > now.getTime()) return null;
    }
  }
}

/** A row to claim: its key and its count of claims so far (claimLease's `key` and `from`). */
interface LeaseRow {
  key: string;
  from: number;
}

/**
 * claimLease for many rows in one command: one unordered insertMany of their next claims. Answers
 * the claim number taken per key this owner now holds. When some insert fails (a row another
 * instance claimed first, or a stale claim of a dead one), the claims are read back and those not
 * ours go through claimLease one by one: FerretDB v1 may stop an unordered insertMany at its first
 * duplicate, so its error does not say which of the others went in. Ours are recognised by the
 * call's own random id: owner and `until` together are not enough, since two overlapping calls of
 * one instance in one millisecond write both alike (each then took the other's claims for its own).
 */
export async function claimLeases(
  claims: Collection<LeaseClaimDoc>,
  rows: readonly LeaseRow[],
  owner: string,
  now: Date,
  until: Date,
): Promise<Map<string, number>> {
  const taken = new Map<string, number>();
  if (rows.length === 0) return taken;
  const idOf = (row: LeaseRow) => `${row.key}|${row.from}`;
  const call = randomUUID();
  try {
    await claims.insertMany(
      rows.map((row) => ({ _id: idOf(row), owner, until, call })),
      { ordered: false },
    );
    for (const row of rows) taken.set(row.key, row.from);
    return taken;
  } catch (error) {
    if (!isDuplicateInsertError(error)) throw error;
  }
  const stored = await claims.find({ _id: { $in: rows.map(idOf) } }).toArray();
  const ours = new Set(stored.filter((doc) => doc.call === call).map((doc) => doc._id));
  for (const row of rows) {
    const claim = ours.has(idOf(row))
      ? row.from
      : await claimLease(claims, row.key, row.from, owner, now, until);
    if (claim !== null) taken.set(row.key, claim);
  }
  return taken;
}
