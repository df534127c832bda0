import { randomBytes } from "node:crypto";
import { type Auth, type AuthOptions, createAuth, createDevOutbox, type DevOutbox } from "@tessera/auth-core";
import { type Db, MongoClient } from "mongodb";
import { inject } from "vitest";

export const TEST_ORIGIN = "http://localhost:3000";
export const TEST_SECRET = "test-secret-0123456789abcdef0123456789";

export interface TestAuth {
  auth: Auth;
  db: Db;
  outbox: DevOutbox;
  /** Moves the injected clock forward. */
  advance(seconds: number): void;
  now(): Date;
  close(): Promise<void>;
}

type Overrides = Omit<Partial<AuthOptions>, "database">;

/**
 * An auth instance on its own fresh database in the shared test server (real MongoDB protocol),
 * with a controllable clock and an outbox mailer. Rate limiting is off unless a test turns it on.
 */
export async function createTestAuth(overrides: Overrides = {}): Promise<TestAuth> {
  const uri = inject("mongoUri");
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`t_${randomBytes(6).toString("hex")}`);
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
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
  });
  await auth.migrate();
  return {
    auth,
    db,
    outbox,
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
