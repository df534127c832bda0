import type { Collection, Db, Document, Filter, RunCommandOptions } from "mongodb";
import { TRANSIENT_SERVER_CODES } from "./connect.ts";

export interface PageQuery<T> {
  filter: Filter<T>;
  /** Field → 1 or -1, in order of precedence. */
  sort?: Record<string, 1 | -1>;
  skip?: number;
  /** At least 1: a find command reads `limit: 0` as "no limit". */
  limit: number;
  /** Inclusion projection (`_id` always comes back), or exclusion (0s); the result type stays the whole document. */
  projection?: Record<string, 0 | 1>;
}

/**
 * A bounded read of at most `limit` documents in one reply, as one `find` command through
 * `db.command`. Same command on the wire as `collection.find(...).toArray()`, decoded more cheaply:
 * the cursor first wraps every document in an on-demand view (its own index of the document's
 * fields) and then deserializes it alone, with a fresh copy of the options; here the reply is
 * deserialized once. For the lists of get-full-organization (300 documents) the cursor's way
 * allocated about 1 MB per request, most of the server's garbage.
 *
 * `singleBatch`: the server closes the cursor after this reply, so there is no getMore and no
 * killCursors. A reply holds at most 16 MiB; the pages read this way are at most 100 documents of
 * a few hundred bytes. The command is retried once where the driver would retry a `find`
 * (`readCommand`).
 */
export async function findPage<T extends Document>(
  collection: Collection<T>,
  query: PageQuery<T>,
): Promise<T[]> {
  const reply = await readCommand(collection.db, findPageCommand(collection, query));
  return (reply as { cursor: { firstBatch: T[] } }).cursor.firstBatch;
}

/** The `find` command of a page (findPage, raw-page.ts findRawPage). */
export function findPageCommand<T extends Document>(
  collection: Collection<T>,
  query: PageQuery<T>,
): Document {
  if (!(query.limit >= 1)) throw new RangeError(`findPage: limit must be at least 1, was ${query.limit}`);
  const command: Document = { find: collection.collectionName, filter: query.filter };
  if (query.sort) command.sort = query.sort;
  if (query.projection) command.projection = query.projection;
  if (query.skip) command.skip = query.skip;
  command.limit = query.limit;
  command.batchSize = query.limit;
  command.singleBatch = true;
  return command;
}

/**
 * The first document matching `filter`, or null: `findOne` as one `find` command of `limit: 1`
 * decoded once, without the cursor the driver builds around it (about 0.08 ms of server CPU a read;
 * every signed-in request reads its session and user this way).
 */
export async function findFirst<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
  /** Inclusion (field → 1), or exclusion (field → 0: features/events WITHOUT_OUTBOX). */
  projection?: Record<string, 0 | 1>,
): Promise<T | null> {
  const [first] = await findPage(
    collection,
    projection ? { filter, limit: 1, projection } : { filter, limit: 1 },
  );
  return first ?? null;
}

/**
 * `db.command` for a read, retried once as the driver retries its own reads (retryable reads): after
 * the connection failed under the command, or a server answered that it is stopping or stepping
 * down. Not after a server-selection timeout (no server to ask: the wait would only double) nor a
 * socket timeout (a slow server stays slow). A `find` read twice is the same read.
 */
export async function readCommand(db: Db, command: Document, options?: RunCommandOptions): Promise<Document> {
  try {
    return await db.command(command, options);
  } catch (error) {
    if (!isRetryableRead(error)) throw error;
    return db.command(command, options);
  }
}

/** @internal Exported for its unit test (find-page.test.ts). */
export function isRetryableRead(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "MongoNetworkError" || error.name === "MongoPoolClearedError") return true;
  const code = (error as { code?: unknown }).code;
  return error.name === "MongoServerError" && typeof code === "number" && TRANSIENT_SERVER_CODES.has(code);
}
