import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

/** One limited insert: how many rows count against the limit, the insert, and its undo. */
export interface BoundedInsert<T> {
  count(): Promise<number>;
  insert(): Promise<T>;
  undo(value: T): Promise<void>;
}

const ATTEMPTS = 4;
const BACKOFF_MS = 25;

/**
 * Inserts within `limit` when the rows carry no seat to claim (invitationLimit, organizationLimit,
 * teams.maximumTeams). A count before the insert cannot see parallel inserts (measured on FerretDB:
 * 10 parallel creates all passed a limit of 3), and FerretDB v1 has neither transactions nor exact
 * counters. So: insert, count again, and undo when over. Each keeper counted after its own insert,
 * so the last keeper to insert saw every keeper: no interleaving keeps more than `limit`.
 *
 * Parallel callers that all see each other would all undo; so an undone caller waits a random,
 * growing moment and tries again while the count leaves room, which spreads them out and fills the
 * limit in practice. Null when the limit is reached (or still contended after ATTEMPTS): refusing
 * is safe, exceeding is not. `counted` spares the first count of a caller that counted to decide
 * something before the insert (inviteOrRenew: whether to queue the invitation's mail).
 */
export async function insertWithinLimit<T>(
  steps: BoundedInsert<T>,
  limit: number,
  /** The count a caller took already, just before: it stands for the first attempt's own. */
  counted?: number,
): Promise<T | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if ((attempt === 0 && counted !== undefined ? counted : await steps.count()) >= limit) return null;
    const value = await steps.insert();
    if ((await steps.count()) <= limit) return value;
    await steps.undo(value);
    if (attempt < ATTEMPTS - 1) await sleep(randomInt(1, BACKOFF_MS * 2 ** attempt + 1));
  }
  return null;
}
