import { randomBytes } from "node:crypto";
import { type Auth, type AuthOptions, createAuth, createDevOutbox, type DevOutbox } from "@tessera/auth-core";
import { type CommandStartedEvent, type Db, MongoClient } from "mongodb";
import { inject } from "vitest";

export const TEST_ORIGIN = "http://localhost:3000";
export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

export interface TestAuth {
  auth: Auth;
  db: Db;
  outbox: DevOutbox;
  /**
   * The database commands (`command:collection`) the driver sent while `run` was in flight — the
   * deterministic cost budgets of STYLE.md. The driver's own handshake and monitoring are left out.
   */
  commands(run: () => Promise<unknown>): Promise<string[]>;
  /** Moves the injected clock forward. */
  advance(seconds: number): void;
  now(): Date;
  close(): Promise<void>;
}

const DRIVER_COMMANDS = new Set(["hello", "ismaster", "isMaster", "ping", "endSessions"]);

type Overrides = Omit<Partial<AuthOptions>, "database">;

/**
 * An auth instance on its own fresh database in the shared test server (real MongoDB protocol),
 * with a controllable clock and an outbox mailer. Rate limiting is off unless a test turns it on.
 */
export async function createTestAuth(
  overrides: Overrides = {},
  clock: { frozen?: boolean } = {},
): Promise<TestAuth> {
  const uri = inject("mongoUri");
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, monitorCommands: true });
  const db = client.db(`t_${randomBytes(6).toString("hex")}`);
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
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    ...overrides,
    rateLimit: { enabled: false, ...overrides.rateLimit },
    // Every answer in the test suite is checked against its endpoint's contract.
    advanced: { checkResponses: true, ...overrides.advanced },
  });
  await auth.migrate();
  let seen: string[] | null = null;
  client.on("commandStarted", (event: CommandStartedEvent) => {
    if (seen === null || DRIVER_COMMANDS.has(event.commandName)) return;
    seen.push(`${event.commandName}:${String(event.command[event.commandName])}`);
  });
  return {
    auth,
    db,
    outbox,
    async commands(run) {
      seen = [];
      try {
        await run();
        return seen;
      } finally {
        seen = null;
      }
    },
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    now,
    close: async () => {
      await db.dropDatabase().catch(() => {});
      await client.close();
    },
  };
}
