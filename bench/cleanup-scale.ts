/**
 * `pnpm bench:cleanup-scale`: what `auth.cleanup()` costs on the embedded database with BENCH_ROWS
 * (default 100,000) live rows in `verifications` (reset links, throttle slots; 1% invitation
 * claims) and as many sessions, and the share of the crash repairs in it (docs/scale.md "Crash in
 * the middle"): the read of the `pendingDeletions` journal and the scan for invitation claims.
 * Medians of 3, in the same run. A measurement, not a test.
 */
import { randomBytes } from "node:crypto";
import { createAuth } from "../packages/auth-core/src/index.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { MongoClient, ObjectId } from "../tests/cli/mongodb.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 1000;
const database = await startDevDatabase({ log: () => {} });
const dbName = `bench_cleanup_${randomBytes(3).toString("hex")}`;
const client = new MongoClient(database.uri);
const db = client.db(dbName);
const auth = createAuth({
  database: { uri: database.uri, dbName },
  secret: "bench-secret-0123456789abcdef012345",
  baseURL: "http://127.0.0.1:3000",
  logger: { info: () => {}, warn: () => {}, error: () => {} },
});

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[1] ?? 0;
}

try {
  await auth.migrate();
  const later = new Date(Date.now() + 86_400_000);
  const now = new Date();
  for (let start = 0; start < ROWS; start += BATCH) {
    const count = Math.min(BATCH, ROWS - start);
    const kind = (i: number) => ((start + i) % 100 === 0 ? "invitation-claim" : "reset-password");
    await db.collection("verifications").insertMany(
      Array.from({ length: count }, (_, i) => ({
        _id: new ObjectId(),
        identifier: `${kind(i)}:${new ObjectId().toHexString()}`,
        value: "used",
        expiresAt: later,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await db.collection("sessions").insertMany(
      Array.from({ length: count }, () => ({
        _id: new ObjectId(),
        userId: new ObjectId(),
        token: randomBytes(16).toString("hex"),
        expiresAt: later,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  const { collections } = auth.context;
  const { findOneTimeTokens } = await import("../packages/auth-core/src/features/verification/index.ts");
  const { listPendingDeletions } = await import(
    "../packages/auth-core/src/features/pending-deletions/index.ts"
  );
  const cleanup = await median(() => auth.cleanup());
  const claims = await median(() => findOneTimeTokens(collections, "invitation-claim:"));
  const journal = await median(() => listPendingDeletions(collections, "user"));
  console.info(
    JSON.stringify({
      rows: ROWS,
      cleanupMs: Math.round(cleanup),
      invitationClaimScanMs: Math.round(claims),
      journalReadMs: Math.round(journal * 10) / 10,
      note: "the claim scan finds 1% of rows as claims whose invitations do not exist: each costs one find by _id",
    }),
  );
} finally {
  await client.db(dbName).dropDatabase();
  await client.close();
  await auth.close();
  await database.stop();
}
