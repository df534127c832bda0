/**
 * The database time events add to a sign-up (issue 33: at most 10% of its database time without
 * them). N sign-ups through auth.handler on the embedded database, one after another, each waited
 * for with its relay; rounds with the relay on and off alternate, each on a fresh database.
 *
 * - `databaseCpuMsPerSignUp`: CPU time of the database process (/proc) per sign-up. With the relay
 *   off (the instance's event hub given a relay that does nothing), the events still ride in the
 *   user and session inserts, so the difference is the relay's insert into `events`: what writing
 *   the events adds, beside the few hundred bytes of outbox, which both modes write.
 * - `relayCommandMsPerSignUp`: the driver's time of the relay's commands (comment
 *   tessera:event-relay, db/event-hub.ts). It includes waiting for SQLite's write lock behind the
 *   request's own writes when a relay overlaps them, so it overstates the work.
 *
 * `pnpm tsx bench/events-sign-up.ts [N] [rounds]`.
 */

import { createAuth } from "../packages/auth-core/src/index.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { MongoClient } from "../tests/cli/mongodb.ts";
import { cpuSeconds, findDatabasePid } from "./processes.ts";

const N = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 2);
const database = await startDevDatabase({ log: () => {} });
const databasePid = findDatabasePid(database.uri);
const client = new MongoClient(database.uri, { monitorCommands: true });
const relayCommands = new Map<number, boolean>();
let relayMs = 0;
client.on("commandStarted", (event) =>
  relayCommands.set(event.requestId, event.command.comment === "tessera:event-relay"),
);
client.on("commandSucceeded", (event) => {
  if (relayCommands.get(event.requestId)) relayMs += event.duration;
  relayCommands.delete(event.requestId);
});

async function round(relay: boolean, index: number): Promise<{ cpuMs: number; relayMs: number }> {
  const dbName = `bench_events_${relay ? "on" : "off"}_${index}_${Date.now()}`;
  const auth = createAuth({
    database: client.db(dbName),
    secret: "bench-secret-0123456789abcdef0123456789",
    baseURL: "http://localhost:3000",
    mailer: { send: async () => {} },
    rateLimit: { enabled: false },
    logger: { info() {}, warn() {}, error: console.error },
  });
  await auth.migrate();
  if (!relay) auth.context.collections.eventHub.batch = () => {};
  relayMs = 0;
  const cpuBefore = cpuSeconds(databasePid);
  for (let i = 0; i < N; i++) {
    const res = await auth.handler(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({
          name: `U ${i}`,
          email: `u${i}@example.com`,
          password: "correct horse battery",
        }),
      }),
    );
    if (res.status !== 200) throw new Error(`sign-up answered ${res.status}`);
    await auth.context.collections.eventHub.settle();
  }
  const cpuMs = ((cpuSeconds(databasePid) - cpuBefore) * 1000) / N;
  const measured = { cpuMs, relayMs: relayMs / N };
  await client.db(dbName).dropDatabase();
  await auth.close();
  return measured;
}

const on: number[] = [];
const off: number[] = [];
let relayCommandMs = 0;
for (let r = 0; r < ROUNDS; r++) {
  const withRelay = await round(true, r);
  on.push(withRelay.cpuMs);
  relayCommandMs += withRelay.relayMs / ROUNDS;
  off.push((await round(false, r)).cpuMs);
}
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  JSON.stringify({
    signUps: N,
    rounds: ROUNDS,
    databaseCpuMsPerSignUp: {
      relayOn: on.map((v) => +v.toFixed(3)),
      relayOff: off.map((v) => +v.toFixed(3)),
    },
    addedShare: +((median(on) - median(off)) / median(off)).toFixed(4),
    relayCommandMsPerSignUp: +relayCommandMs.toFixed(3),
  }),
);
await client.close();
await database.stop();
