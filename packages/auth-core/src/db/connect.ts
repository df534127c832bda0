import {
  type Collection,
  Db,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type OptionalUnlessRequiredId,
} from "mongodb";

/** The driver's database class, for the `database` option's schema (config/ does not import "mongodb"). */
export { Db };

export interface DatabaseHandle {
  db: Db;
  /** Closes the client only when this module opened it; a host-provided Db stays open. */
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Bounded timeouts so that a database that is down answers 503 within about 2 s; the driver
 * reconnects by itself once the server is back, so no restart is needed.
 */
export function connectDatabase(
  config: Db | { uri: string; dbName?: string | undefined; serverSelectionTimeoutMS: number },
): DatabaseHandle {
  if (!("uri" in config)) return { db: config, close: async () => {} };
  const client = new MongoClient(config.uri, {
    appName: "tessera",
    serverSelectionTimeoutMS: config.serverSelectionTimeoutMS,
    // Not the selection timeout: the driver also bounds each monitoring check by it, and on a busy
    // machine a check that took longer than a short selection timeout (1000 ms in the standalone
    // server) marked the server unknown and cleared the pool, failing requests in flight with 503
    // (tests/reliability, the load scenario). A database that is down refuses connections at once;
    // one that accepts and never answers is cut by the request deadline.
    connectTimeoutMS: Math.max(config.serverSelectionTimeoutMS, CONNECT_TIMEOUT_MS),
    socketTimeoutMS: 10_000,
    maxPoolSize: 50,
  });
  return { db: client.db(config.dbName), close: () => client.close() };
}

/**
 * A duplicate-key violation — an insert or update lost a race or hit a unique rule. MongoDB says
 * code 11000; FerretDB v1 (SQLite) says so for inserts but answers an update that breaks a unique
 * index with code 1 "InternalError" and SQLite's "UNIQUE constraint failed" text.
 */
export function isDuplicateKeyError(error: unknown): boolean {
  if (!(error instanceof MongoServerError)) return false;
  return error.code === 11000 || (error.code === 1 && /UNIQUE constraint failed/.test(error.message));
}

/**
 * A failed insert or unordered insertMany whose every failure is a duplicate `_id` (the row exists:
 * another writer's, or this one's own retried): the callers then find out row by row which went in.
 */
export function isDuplicateInsertError(error: unknown): boolean {
  if (isDuplicateKeyError(error)) return true;
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return (
    list.length > 0 &&
    list.every((entry) => {
      const { code, errmsg } = entry as { code?: number; errmsg?: string };
      return code === 11000 || (code === 1 && /UNIQUE constraint failed/.test(errmsg ?? ""));
    })
  );
}

/** Errors that mean "the database is unreachable", answered 503 rather than 500. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (
    [
      "MongoServerSelectionError",
      "MongoNetworkError",
      "MongoNetworkTimeoutError",
      "MongoTopologyClosedError",
      "MongoNotConnectedError",
      "MongoPoolClearedError",
    ].includes(error.name)
  )
    return true;
  const code = (error as { code?: unknown }).code;
  // The driver passes a socket's own error through unwrapped when a write waits for the socket to
  // drain and the socket fails instead (its writeCommand): the database process died under it.
  if (typeof code === "string") return LOST_SOCKET_CODES.has(code);
  // A server that is starting, stopping or stepping down answers these: retry later, not a fault.
  return error.name === "MongoServerError" && typeof code === "number" && TRANSIENT_SERVER_CODES.has(code);
}

/** Node's codes for a connection the other side ended or reset ("This socket has been ended by the other party"). */
const LOST_SOCKET_CODES = new Set(["EPIPE", "ECONNRESET"]);

/**
 * MongoDB's codes for a server that cannot serve right now (ShutdownInProgress, InterruptedAtShutdown,
 * PrimarySteppedDown, NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary,
 * InterruptedDueToReplStateChange, HostUnreachable, HostNotFound, NetworkTimeout, SocketException).
 */
export const TRANSIENT_SERVER_CODES = new Set([91, 11600, 189, 10107, 13435, 13436, 11602, 6, 7, 89, 9001]);

/** True when the error, or any error in its `cause` chain, is a database outage. */
export function isCausedByDatabaseOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    if (isDatabaseUnavailableError(current)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * insertMany in batches of 1,000 that keeps going past duplicate keys (bulk seeding, imports,
 * migrations); answers the indexes in `docs` of the documents refused as duplicates. Any other
 * write error is thrown.
 */
export async function insertManyIgnoringDuplicates<T extends { _id: unknown }>(
  collection: Collection<T>,
  docs: T[],
): Promise<Set<number>> {
  const refused = new Set<number>();
  for (let start = 0; start < docs.length; start += 1000) {
    try {
      await collection.insertMany(docs.slice(start, start + 1000) as OptionalUnlessRequiredId<T>[], {
        ordered: false,
      });
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw error;
      const list = [error.writeErrors].flat();
      if (list.length === 0 || list.some((entry) => entry.code !== 11000)) throw error;
      for (const entry of list) refused.add(start + entry.index);
    }
  }
  return refused;
}
