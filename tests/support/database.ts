import { createHash } from "node:crypto";
import type { Db, Document, Filter } from "mongodb";

/**
 * Collections whose changes are not "data": counters, the migration log, and the events table. The
 * events relay (db/event-hub.ts) copies each document's `_events` outbox into `events` after the
 * answer, and the repair pass (features/events/repair.ts) empties old outboxes, so an earlier
 * request's events may land between two snapshots. Without counters, the table and the outboxes are
 * left out; a request that changes something still changes the document's own fields.
 */
const NOT_DATA = new Set(["rateLimits", "mailLimits", "_migrations", "events", "mailClaims"]);

/**
 * A queued mail's delivery state, which the outbox worker changes after the answer (sent, attempts,
 * lease, its body emptied once sent: features/mail-outbox). A snapshot keeps the mail itself — that
 * a request queued one, to whom, of what kind — and leaves its delivery out.
 */
const MAIL_DELIVERY = [
  "subject",
  "text",
  "html",
  "state",
  "attempts",
  "nextAttemptAt",
  "lease",
  "claims",
  "lastError",
  "updatedAt",
  "sentAt",
];

function asData(collection: string, doc: Document): Document {
  const data = withoutOutbox(doc);
  if (collection !== "mails") return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !MAIL_DELIVERY.includes(key)));
}

/** A document as a snapshot sees it: without its events outbox. */
function withoutOutbox(doc: Document): Document {
  if (!("_events" in doc)) return doc;
  const { _events, ...rest } = doc;
  return rest;
}

/** Per collection, a filter of the documents a dump keeps (the others are left out). */
type Kept = Record<string, Filter<Document>>;

/**
 * The one way a test reads the whole database: every document of every collection, sorted by _id,
 * as text. `counters: false` leaves out the collections that change on every request (rate limits,
 * mail limits) and the migration log, so two equal dumps mean no user-observable data changed.
 * `kept` narrows a collection to the documents that count.
 */
export async function dumpDatabase(
  db: Db,
  options: { counters: boolean; kept?: Kept } = { counters: true },
): Promise<string> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((collection) => collection.name)
    .filter((name) => options.counters || !NOT_DATA.has(name))
    .sort();
  // All collections at once: one round trip's wait instead of one per collection (a test may take
  // a snapshot around every request it sends).
  const lines = await Promise.all(
    names.map(
      async (name) =>
        `${name}:${JSON.stringify(
          (
            await db
              .collection(name)
              .find(options.kept?.[name] ?? {})
              .sort({ _id: 1 })
              .toArray()
          ).map((doc) => (options.counters ? doc : asData(name, doc))),
        )}`,
    ),
  );
  return lines.join("\n");
}

/**
 * A hash of the data collections (dumpDatabase without counters). Two equal snapshots mean the
 * request wrote nothing a user could observe (no user, account, session or verification changed).
 */
export async function snapshotDatabase(db: Db, kept?: Kept): Promise<string> {
  return createHash("sha256")
    .update(await dumpDatabase(db, { counters: false, ...(kept && { kept }) }))
    .digest("hex");
}
