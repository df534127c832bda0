import type { Collection } from "mongodb";
import { isDuplicateKeyError } from "./connect.ts";

/** One claim of a leased row: `<row id>|<n>`, held by `owner` until `until`. */
export interface LeaseClaimDoc {
  _id: string;
  owner: string;
  until: Date;
}

/**
 * Claims the row `key` for `owner` until `until`: the insert of `<key>|<n>` into `claims`, the one
 * write FerretDB v1 applies atomically (docs/security.md "Webhooks": a filtered update or
 * findAndModify there reads, then writes by `_id`, so two instances could both "win" it). `n` starts
 * at the row's count of claims so far; a claim already taken whose lease has ended (its holder died
 * before it recorded anything) is stepped over to `n + 1`. Returns the claim number this owner took,
 * null when a live claim of another owner holds the row. Shared by the webhook deliveries and the
 * mail outbox (features/webhooks/store.ts, features/mail-outbox/store.ts): the caller then writes
 * the lease and `n + 1` into its row.
 */
export async function claimLease(
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
