/**
 * tests/support — the one test-support package (@tessera/tests), shared by the feature tests beside
 * the code and by the cross-package tests in tests/. No test helper lives in a package's src folder.
 *
 * - test-auth.ts: createTestAuth (an auth on its own empty migrated database, test clock,
 *   outbox) and the fixture lifecycle: useTestAuth (one instance per file), useTestAuthPerTest
 *   (one per test, `t` and `openAuth`), useFreshTestAuth (a function opening instances closed
 *   after the test), closeAfterEach (what those are built on).
 * - browser.ts: TestBrowser (cookies, Origin) and signUp.
 * - stored-rows.ts: stored password hashes and reset-token rows.
 * - admin.ts, api-key.ts, deletion.ts, organization.ts, session-cookies.ts, two-factor.ts,
 *   social.ts: each feature's people, fixtures and database readers (admin: useAdminCast;
 *   organization: useFixtures; two-factor: useTwoFactorFixtures; social: useSocialTestbed).
 * - oauth-*.ts: the scripted OAuth/OIDC test server, its keys and grants; oauth-providers.ts builds
 *   providers against it.
 * - captured-io.ts: the CLI's Io with stdout and stderr captured (tests/cli/run-context.ts and the
 *   CLI's own tests); tests/cli/built-cli.ts is the CLI e2e tests' fixture (the built binary).
 * - virtual-authenticator.ts: Chromium's virtual passkey authenticator on a playwright page.
 * - cuttable-proxy.ts, import-graph.ts, global-setup.ts: the database proxy for outage tests, the
 *   module graph for the architecture tests, and the vitest global setup that starts the server.
 */

import { randomBytes } from "node:crypto";
import { type Auth, type AuthOptions, createAuth, createDevOutbox, type DevOutbox } from "@tessera/auth-core";
import { type CommandStartedEvent, type Db, MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";
import { forgetRecentReads, RECENT_READ_MS } from "../../packages/auth-core/src/db/recent-reads.ts";

export const TEST_ORIGIN = "http://localhost:3000";

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

export interface TestAuth {
  auth: Auth;
  db: Db;
  outbox: DevOutbox;
  /**
   * The database commands (`command:collection`) the driver sent while `run` was in flight — the
   * deterministic cost budgets of docs/architecture.md. The driver's own handshake and monitoring are left out.
   * The instance first forgets the domain policies and SSO connections it read (db/recent-reads.ts
   * remembers them for a second): every count is a request's whole cost, whatever ran just before it.
   */
  commands(run: () => Promise<unknown>): Promise<string[]>;
  /**
   * The reads and writes sent while `run` was in flight, each with its filter
   * (`find`/`count`: filter; `delete`/`update`: the first statement's `q`; `findAndModify`: query).
   */
  queries(
    run: () => Promise<unknown>,
  ): Promise<{ command: string; filter: Record<string, unknown> | undefined }[]>;
  /** Moves the injected clock forward. */
  advance(seconds: number): void;
  now(): Date;
  close(): Promise<void>;
}

const DRIVER_COMMANDS = new Set(["hello", "ismaster", "isMaster", "ping", "endSessions"]);

export type Overrides = Omit<Partial<AuthOptions>, "database">;

function filterOf(command: Record<string, unknown>): Record<string, unknown> | undefined {
  const first = (list: unknown) =>
    Array.isArray(list) ? (list[0] as Record<string, unknown>)?.q : undefined;
  const filter = command.filter ?? command.query ?? first(command.deletes) ?? first(command.updates);
  return filter as Record<string, unknown> | undefined;
}
export type Clock = { frozen?: boolean };

/**
 * An auth instance on its own empty migrated database in the shared test server (real MongoDB
 * protocol; a closed test's database emptied, or a new one), with a controllable clock and an
 * outbox mailer. Rate limiting is off unless a test turns it on.
 */
export async function createTestAuth(overrides: Overrides = {}, clock: Clock = {}): Promise<TestAuth> {
  const uri = inject("mongoUri");
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, monitorCommands: true });
  const pooled = cleanDatabases.pop();
  const db = client.db(pooled ?? `t_${randomBytes(6).toString("hex")}`);
  // Whether this database may serve the next test once emptied: not when anything besides this
  // client was told its name, nor when anything changed its collections or indexes after its migration.
  let reusable = true;
  let migrated = false;
  for (const key of ["databaseName", "namespace"] as const) {
    const value = db[key];
    Object.defineProperty(db, key, {
      get() {
        // The driver reads it for every collection it opens; anyone else may hand it to a process.
        if (reusable && !calledByDriver()) reusable = false;
        return value;
      },
    });
  }
  let offsetMs = 0;
  // `frozen`: time moves only through advance() — for tests whose windows must not depend on how
  // long scrypt takes on a loaded machine.
  const start = Date.now();
  const now = clock.frozen ? () => new Date(start + offsetMs) : () => new Date(Date.now() + offsetMs);
  const outbox = createDevOutbox({ print: () => {}, now });
  const auth = createAuth({
    database: db,
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    mailer: outbox,
    clock: now,
    // Errors reach stderr: a 500 in a CI run then shows its cause beside the failing test.
    logger: { info: () => {}, warn: () => {}, error: (...args: unknown[]) => console.error(...args) },
    ...overrides,
    rateLimit: { enabled: false, ...overrides.rateLimit },
    // Every answer in the test suite is checked against its endpoint's contract.
    advanced: { checkResponses: true, ...overrides.advanced },
  });
  // The collections written since the migration: the ones to empty before the database is reused.
  const written = new Set<string>();
  // Rows a test may have added: past REUSE_MAX_ROWS, dropping the database is cheaper than emptying it.
  let added = 0;
  client.on("commandStarted", (event: CommandStartedEvent) => {
    if (!migrated) return;
    const { commandName, command } = event;
    if (WRITE_COMMANDS.has(commandName)) {
      written.add(String(command[commandName]));
      const statements = command.documents ?? command.updates;
      added += Array.isArray(statements) ? statements.length : 1;
      if (added > REUSE_MAX_ROWS) reusable = false;
    } else if (!READ_COMMANDS.has(commandName) && !isReadingAggregate(command)) reusable = false;
  });
  const applied = await auth.migrate();
  // A reused database has every migration recorded: one that ran now was not there before.
  if (pooled && applied.length > 0) reusable = false;
  migrated = true;
  let seen: string[] | null = null;
  let queries: { command: string; filter: Record<string, unknown> | undefined }[] | null = null;
  client.on("commandStarted", (event: CommandStartedEvent) => {
    if (DRIVER_COMMANDS.has(event.commandName)) return;
    // The event relay runs beside the request, off its answer path (features/events): not in its budget.
    // (packages/auth-core/src/db/event-hub.ts RELAY_COMMENT)
    if (event.command.comment === "tessera:event-relay") return;
    // So do the mail outbox's sends and their records (features/mail-outbox/store.ts OUTBOX_COMMENT).
    if (event.command.comment === "tessera:mail-outbox") return;
    const command = `${event.commandName}:${String(event.command[event.commandName])}`;
    seen?.push(command);
    queries?.push({ command, filter: filterOf(event.command) });
  });
  return {
    auth,
    db,
    outbox,
    async commands(run) {
      forgetRecentReads(auth.context.collections);
      seen = [];
      try {
        await run();
        // The relays the run started finish inside it, so none runs into the next measurement.
        await auth.context.collections.eventHub.settle();
        return seen;
      } finally {
        seen = null;
      }
    },
    async queries(run) {
      forgetRecentReads(auth.context.collections);
      queries = [];
      try {
        await run();
        return queries;
      } finally {
        queries = null;
      }
    },
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    now,
    close: async () => {
      // Stops the instance's mail worker and waits for its sends (createAuth does not own this client).
      await auth.close().catch(() => {});
      if (reusable && (await emptied(db, written))) cleanDatabases.push(db.databaseName);
      else await db.dropDatabase().catch(() => {});
      await client.close();
    },
  };
}

/**
 * Databases of this test process that served a closed test and were emptied: migrated, every
 * collection and index as the migrations left them, no document but the migrations' records. The
 * next createTestAuth takes one instead of migrating a new database (about half a second of DDL on
 * the embedded server, which nearly every test paid).
 */
const cleanDatabases: string[] = [];

/** How many emptied databases wait for reuse (tests/support's own test). */
export const reusableDatabaseCount = (): number => cleanDatabases.length;

/**
 * FerretDB deletes a collection's documents one by one, so emptying a database a test filled with
 * thousands of rows (the scale tests) cost seconds where dropping it costs milliseconds.
 */
const REUSE_MAX_ROWS = 1000;

/** Commands that write documents of the collection they name, and change nothing else. */
const WRITE_COMMANDS = new Set(["insert", "update", "delete", "findAndModify"]);

/** Commands that change nothing. */
const READ_COMMANDS = new Set([
  ...DRIVER_COMMANDS,
  "find",
  "getMore",
  "killCursors",
  "count",
  "distinct",
  "listCollections",
  "listIndexes",
  "collStats",
  "dbStats",
  "explain",
]);

/** An aggregate that writes no collection ($out, $merge). */
function isReadingAggregate(command: Record<string, unknown>): boolean {
  const pipeline = command.pipeline;
  if (command.aggregate === undefined || !Array.isArray(pipeline)) return false;
  return !pipeline.some((stage) => "$out" in stage || "$merge" in stage);
}

/** True when the getter calling this was called by the MongoDB driver itself. */
function calledByDriver(): boolean {
  const caller = new Error().stack?.split("\n")[3] ?? "";
  return /[\\/]node_modules[\\/](?:\.pnpm[\\/]mongodb@[^\\/]+[\\/]node_modules[\\/])?mongodb[\\/]/.test(
    caller,
  );
}

/**
 * Deletes every document of the written collections; false when one of them is the migrations'
 * records or a delete fails (the database is then dropped).
 */
async function emptied(db: Db, written: ReadonlySet<string>): Promise<boolean> {
  if (written.has("_migrations")) return false;
  try {
    for (const name of written) await db.collection(name).deleteMany({});
    return true;
  } catch {
    return false;
  }
}

// What this file's tests left for reuse goes when the file ends.
afterAll(async () => {
  const names = cleanDatabases.splice(0);
  if (names.length === 0) return;
  const client = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  try {
    for (const name of names) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
});

/**
 * The fixture lifecycle of a test file whose tests each need their own instance: `closeAfterEach`
 * registers an afterEach that closes whatever the returned function was handed during the test.
 */
export function closeAfterEach<T extends { close(): Promise<void> }>(): (opened: T) => T {
  const open: T[] = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });
  return (opened) => {
    open.push(opened);
    return opened;
  };
}

/** `createTestAuth` for a file of per-test instances: each one is closed after the test that opened it. */
export function useFreshTestAuth(): (overrides?: Overrides, clock?: Clock) => Promise<TestAuth> {
  const track = closeAfterEach<TestAuth>();
  return async (overrides, clock) => track(await createTestAuth(overrides, clock));
}

/**
 * One instance for every test of a file: opened before them, closed after them. The returned value
 * stands for that instance (use it inside hooks and tests, not at import time).
 */
export function useTestAuth(overrides: Overrides = {}, clock: Clock = {}): TestAuth {
  let current: TestAuth | undefined;
  beforeAll(async () => {
    current = await createTestAuth(overrides, clock);
  });
  afterAll(async () => {
    await current?.close();
  });
  return standIn(() => current, "useTestAuth: the instance is opened in beforeAll; use it in a test");
}

/**
 * One instance per test, closed after it; `t` stands for the test's instance. With `open:
 * "each-test"` it is opened before every test (with `overrides`, `clock`); otherwise a test opens it
 * with `openAuth(overrides, clock)` — for files whose tests each need other options. A second
 * `openAuth` in one test closes the first instance.
 */
export function useTestAuthPerTest(
  options: { open?: "each-test" | "by-set-up"; overrides?: Overrides; clock?: Clock } = {},
): { t: TestAuth; openAuth(overrides?: Overrides, clock?: Clock): Promise<TestAuth> } {
  let current: TestAuth | undefined;
  const close = async () => {
    const closing = current;
    current = undefined;
    await closing?.close();
  };
  const openAuth = async (overrides = options.overrides ?? {}, clock = options.clock ?? {}) => {
    await close();
    current = await createTestAuth(overrides, clock);
    return current;
  };
  if (options.open === "each-test") {
    beforeEach(async () => {
      await openAuth();
    });
  }
  afterEach(close);
  return {
    t: standIn(() => current, "useTestAuthPerTest: call openAuth (or open each test) first"),
    openAuth,
  };
}

/**
 * An object that stands for whatever `read` answers when it is used: a fixture hands it out at
 * collection time, its hooks open (and replace) the real one later. `unopened` is thrown when it is
 * used before that.
 */
export function standIn<T extends object>(read: () => T | undefined, unopened: string): T {
  return new Proxy({} as T, {
    get(_, key) {
      const current = read();
      if (!current) throw new Error(unopened);
      return Reflect.get(current, key);
    },
  });
}

/**
 * The commands of `run`, counted from nothing remembered (TestAuth.commands), from a run that took at
 * most half of RECENT_READ_MS: what the instance read at its start is still remembered at its end. A
 * slower run (a stalled machine) is tried again, three times at most.
 */
export async function commandsWithinRecentRead(t: TestAuth, run: () => Promise<unknown>): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    let elapsed = 0;
    const commands = await t.commands(async () => {
      const started = performance.now();
      await run();
      elapsed = performance.now() - started;
    });
    if (elapsed <= RECENT_READ_MS / 2 || attempt === 3) return commands;
  }
}
