import type { Collections } from "../../db/collections.ts";
import type { EventSource } from "../../db/event-source.ts";
import { repairRowsDeletions } from "./journal.ts";
import { relayStrandedOutboxes, retentionCutoff } from "./store.ts";

/**
 * A row deletion journaled this recently may still be in flight (its row not yet deleted), and a
 * document written this recently may be written again: the repair pass settles neither.
 */
const IN_FLIGHT_MS = 60_000;

/**
 * The repair pass (docs/architecture.md, "Events written with the change"), run by `auth.cleanup()`
 * and when the standalone server starts: every owner's outboxes have their events not yet stored
 * relayed (those past `retentionDays` excepted), an outbox holding more than OUTBOX_KEEP has those
 * written before `before` emptied, and the row deletions a crash cut are settled — events of rows
 * gone are stored, those of rows still there dropped. Deletions of users and organizations are
 * finished with their events by their own finishers. `before`: settle only entries written before
 * it (default: a minute before the instance's clock). Answers how many events were stored.
 */
export async function repairEvents(
  collections: Collections,
  sources: readonly EventSource[],
  { before, retentionDays }: { before?: Date; retentionDays?: number } = {},
): Promise<number> {
  let stored = 0;
  // This instance's own events gathered for their insert are not stranded: stored first.
  await collections.eventHub.settle();
  const now = collections.eventHub.now();
  const settledBefore = before ?? new Date(now.getTime() - IN_FLIGHT_MS);
  const expiredBefore = retentionDays === undefined ? undefined : retentionCutoff(now, retentionDays);
  for (const source of sources)
    stored += await relayStrandedOutboxes(collections, source.collection(collections), {
      settledBefore,
      expiredBefore,
    });
  stored += await repairRowsDeletions(collections, sources, settledBefore);
  return stored;
}
