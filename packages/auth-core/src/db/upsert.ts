import { isDuplicateKeyError } from "./connect.ts";

/**
 * Runs `upsert` (an updateOne/replaceOne/findOneAndUpdate with `upsert: true` whose filter is an
 * equality on a unique key), and runs it once more when it fails on a duplicate key. Two upserts of
 * one absent key can both find no document and both try to insert it; the loser's E11000 means the
 * document exists now, so the second run matches it and writes as an update. MongoDB retries such an
 * upsert on the server by itself; FerretDB v1 answers the duplicate key to the client
 * (docs/decisions/0004-identifiers-and-storage.md). Once is enough: the document the winner inserted
 * is matched by the second run's filter. A bulkWrite of `n` such upserts fails the same way (its
 * MongoBulkWriteError carries the first failed statement's code) and is run again whole, up to `n`
 * more times: FerretDB v1 may stop an unordered batch at its first lost race (measured), so each
 * run settles at least one more statement.
 */
export async function upsertRetryingRace<T>(upsert: () => Promise<T>, statements = 1): Promise<T> {
  for (let run = 0; ; run++) {
    try {
      return await upsert();
    } catch (error) {
      if (!isDuplicateKeyError(error) || run >= statements) throw error;
    }
  }
}
