/**
 * The database time events add to a sign-up (issue 33: at most 10% of its database time without
 * them). N sign-ups through auth.handler on the embedded database; every command's time is read
 * from the driver's monitoring. The event relay's commands carry the comment tessera:event-relay
 * (db/event-hub.ts): their time is what writing the events adds (the events ride in the user and
 * session inserts, a few hundred bytes more). `pnpm tsx bench/events-sign-up.ts [N]`.
 */

import { createAuth } from "../packages/auth-core/src/index.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { MongoClient } from "../tests/cli/mongodb.ts";

const N = Number(process.argv[2] ?? 200);
const database = await startDevDatabase({ log: () => {} });
const client = new MongoClient(database.uri, { monitorCommands: true });
const dbName = `bench_events_${Date.now()}`;
const relayComments = new Map<number, boolean>();
let relayMs = 0;
let requestMs = 0;
client.on("commandStarted", (event) =>
  relayComments.set(event.requestId, event.command.comment === "tessera:event-relay"),
);
client.on("commandSucceeded", (event) => {
  if (relayComments.get(event.requestId)) relayMs += event.duration;
  else requestMs += event.duration;
  relayComments.delete(event.requestId);
});
const auth = createAuth({
  database: client.db(dbName),
  secret: "bench-secret-0123456789abcdef0123456789",
  baseURL: "http://localhost:3000",
  mailer: { send: async () => {} },
  rateLimit: { enabled: false },
  logger: { info() {}, warn() {}, error: console.error },
});
await auth.migrate();
relayMs = 0;
requestMs = 0;
for (let i = 0; i < N; i++) {
  const res = await auth.handler(
    new Request("http://localhost:3000/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify({ name: `U ${i}`, email: `u${i}@example.com`, password: "correct horse battery" }),
    }),
  );
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}`);
  await auth.context.collections.eventHub.settle();
}
console.log(
  JSON.stringify({
    signUps: N,
    requestDatabaseMsPerSignUp: +(requestMs / N).toFixed(3),
    relayDatabaseMsPerSignUp: +(relayMs / N).toFixed(3),
    addedShare: +(relayMs / requestMs).toFixed(4),
  }),
);
await client.db(dbName).dropDatabase();
await auth.close();
await client.close();
await database.stop();
