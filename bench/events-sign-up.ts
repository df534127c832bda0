/**
 * The database time events add to a sign-up (issue 33: at most 10% of its database time without
 * them). N sign-ups through auth.handler on the embedded database, one after another, each waited
 * for with its relay; rounds of three modes alternate, each on a fresh database:
 * - `events`: as shipped: user.created and session.created ride in the user and session inserts, the
 *   relay stores them in `events`, and the repair pass empties the outboxes once they are settled
 *   (the hourly cleanup's work, run here at the round's end with every outbox settled, its database
 *   time counted with the round's);
 * - `outboxOnly`: the relay off (the event hub given one that does nothing): the outboxes are written,
 *   the `events` insert is not;
 * - `none`: a sign-up without events: the relay off and the outboxes taken out of every write before
 *   it reaches the driver (the bench's wrapper of the instance's collections), so the database sees
 *   the sign-up's own writes only.
 *
 * - `databaseCpuMsPerSignUp`: CPU time of the database process (/proc) per sign-up, per round.
 * - `addedShare`: (events − none) / none, medians; `addedSharePaired`: the median of each round's
 *   events − none, over none. `relayShare`: (events − outboxOnly) / none, the relay's part of it.
 * - `repairCpuMsPerSignUp`: the repair pass's database CPU over the round's sign-ups; `ownShare`: the
 *   median of each round's events − repair pass − none, over none — what writing the events costs the
 *   sign-ups themselves (the figure: the repair pass is the hourly cleanup's, and follows the
 *   documents holding outboxes, not the sign-ups).
 * - `commandsPerSignUp`, `jsonBytesPerSignUp`: what the driver sent per sign-up in each mode (commands
 *   counted; their sizes as JSON summed, near their BSON size: bench/ cannot import the driver's BSON).
 * - `relayCommandMsPerSignUp`: the driver's time of the relay's commands (comment
 *   tessera:event-relay, db/event-hub.ts). It includes waiting for SQLite's write lock behind the
 *   request's own writes when a relay overlaps them, so it overstates the work.
 *
 * `concurrency` sign-ups are sent at once, the next as soon as one answers, as a server sees them
 * under a steady stream; their events share inserts as the event hub gathers them (db/event-hub.ts
 * batch, BATCH_WINDOW_MS), and the round waits for the last relay at its end. `each` as the fourth
 * argument waits for every group's relay before the next group starts instead: each group's events
 * then have an insert of their own, the worst case (one sign-up alone on an idle server).
 *
 * `pnpm tsx bench/events-sign-up.ts [N] [rounds] [concurrency] [each]`.
 */

import { repairEvents } from "../packages/auth-core/src/features/events/index.ts";
import { createAuth } from "../packages/auth-core/src/index.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { MongoClient } from "../tests/cli/mongodb.ts";
import { cpuSeconds, findDatabasePid } from "./processes.ts";

const N = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 2);
/** Sign-ups in flight at once. */
const CONCURRENCY = Number(process.argv[4] ?? 1);
/** Whether each group of CONCURRENCY sign-ups waits for its relay before the next (the worst case). */
const SETTLE_EACH = process.argv[5] === "each";
const database = await startDevDatabase({ log: () => {} });
const databasePid = findDatabasePid(database.uri);
const client = new MongoClient(database.uri, { monitorCommands: true });
const relayCommands = new Map<number, boolean>();
let relayMs = 0;
let commands = 0;
let bytes = 0;
client.on("commandStarted", (event) => {
  relayCommands.set(event.requestId, event.command.comment === "tessera:event-relay");
  commands++;
  bytes += Buffer.byteLength(JSON.stringify(event.command));
});
client.on("commandSucceeded", (event) => {
  if (relayCommands.get(event.requestId)) relayMs += event.duration;
  relayCommands.delete(event.requestId);
});

type Mode = "events" | "outboxOnly" | "none";
type Measured = { cpuMs: number; repairCpuMs: number; relayMs: number; commands: number; bytes: number };

/** The instance's collections, each write of which leaves out `_events` (mode `none`). */
function writeWithoutOutboxes(collections: object): void {
  const strip = (doc: Record<string, unknown>) => {
    const { _events: _dropped, ...rest } = doc;
    return rest;
  };
  const stripUpdate = (update: Record<string, unknown>) => {
    const push = update.$push as Record<string, unknown> | undefined;
    if (!push || !("_events" in push)) return update;
    const { $push: _push, ...rest } = update;
    const others = strip(push);
    return Object.keys(others).length > 0 ? { ...rest, $push: others } : rest;
  };
  for (const value of Object.values(collections)) {
    if (!value || typeof value !== "object" || !("insertOne" in value)) continue;
    type Method = (...args: unknown[]) => Promise<unknown>;
    const collection = value as Record<string, Method>;
    const wrap = (name: string, change: (args: unknown[]) => unknown[]) => {
      const original = collection[name]!.bind(collection);
      collection[name] = (...args: unknown[]) => original(...change(args));
    };
    // The driver sets a missing _id on the document it is given: the caller's copy gets it too.
    wrap("insertOne", ([doc, ...rest]) => {
      const sent = strip(doc as Record<string, unknown>);
      (doc as Record<string, unknown>)._id ??= sent._id;
      return [sent, ...rest];
    });
    wrap("insertMany", ([docs, ...rest]) => [(docs as Record<string, unknown>[]).map(strip), ...rest]);
    for (const name of ["updateOne", "updateMany", "findOneAndUpdate"])
      wrap(name, ([filter, update, ...rest]) => [
        filter,
        stripUpdate(update as Record<string, unknown>),
        ...rest,
      ]);
  }
}

async function round(mode: Mode, index: number): Promise<Measured> {
  const dbName = `bench_events_${mode}_${index}_${Date.now()}`;
  const auth = createAuth({
    database: client.db(dbName),
    secret: "bench-secret-0123456789abcdef0123456789",
    baseURL: "http://localhost:3000",
    mailer: { send: async () => {} },
    rateLimit: { enabled: false },
    logger: { info() {}, warn() {}, error: console.error },
  });
  await auth.migrate();
  if (mode !== "events") auth.context.collections.eventHub.batch = () => {};
  if (mode === "none") writeWithoutOutboxes(auth.context.collections);
  relayMs = 0;
  commands = 0;
  bytes = 0;
  const cpuBefore = cpuSeconds(databasePid);
  const signUp = async (i: number) => {
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
  };
  if (SETTLE_EACH)
    for (let i = 0; i < N; i += CONCURRENCY) {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, N - i) }, (_, k) => signUp(i + k)));
      await auth.context.collections.eventHub.settle();
    }
  else {
    let next = 0;
    const lane = async () => {
      while (next < N) await signUp(next++);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  }
  await auth.context.collections.eventHub.settle();
  const cpuBeforeRepair = cpuSeconds(databasePid);
  if (mode === "events") {
    const settled = new Date(Date.now() + 3_600_000);
    await repairEvents(auth.context.collections, auth.context.eventSources, { before: settled });
  }
  const cpuAfter = cpuSeconds(databasePid);
  const cpuMs = ((cpuAfter - cpuBefore) * 1000) / N;
  const repairCpuMs = ((cpuAfter - cpuBeforeRepair) * 1000) / N;
  const measured = { cpuMs, repairCpuMs, relayMs: relayMs / N, commands: commands / N, bytes: bytes / N };
  await client.db(dbName).dropDatabase();
  await auth.close();
  return measured;
}

const modes: Mode[] = ["events", "outboxOnly", "none"];
const rounds: Record<Mode, Measured[]> = { events: [], outboxOnly: [], none: [] };
for (let r = 0; r < ROUNDS; r++)
  for (const mode of modes) {
    const measured = await round(mode, r);
    rounds[mode].push(measured);
    // Each round as it ends (a long run stopped early still shows its rounds).
    console.error(
      `events-sign-up: round ${r + 1} ${mode} ${measured.cpuMs.toFixed(3)} ms a sign-up (repair pass ${measured.repairCpuMs.toFixed(3)})`,
    );
  }
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpu = (mode: Mode) => median(rounds[mode].map((m) => m.cpuMs));
const perMode = (pick: (m: Measured) => number, digits: number) =>
  Object.fromEntries(modes.map((mode) => [mode, +median(rounds[mode].map(pick)).toFixed(digits)]));
console.log(
  JSON.stringify({
    signUps: N,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    relayWaitedEach: SETTLE_EACH,
    databaseCpuMsPerSignUp: Object.fromEntries(
      modes.map((mode) => [mode, rounds[mode].map((m) => +m.cpuMs.toFixed(3))]),
    ),
    addedShare: +((cpu("events") - cpu("none")) / cpu("none")).toFixed(4),
    // Each round's events against the none of the same round (the machine drifts between rounds).
    addedSharePaired: +(
      median(rounds.events.map((m, r) => m.cpuMs - rounds.none[r]!.cpuMs)) / cpu("none")
    ).toFixed(4),
    relayShare: +((cpu("events") - cpu("outboxOnly")) / cpu("none")).toFixed(4),
    // The repair pass's part of `events` (run once at the round's end, over the round's documents): a
    // periodic job whose work follows the documents holding outboxes, not the sign-ups. `ownShare`
    // is what the sign-ups' own writing of their events added (outboxes and the relay's inserts).
    repairCpuMsPerSignUp: +median(rounds.events.map((m) => m.repairCpuMs)).toFixed(3),
    ownShare: +(
      median(rounds.events.map((m, r) => m.cpuMs - m.repairCpuMs - rounds.none[r]!.cpuMs)) / cpu("none")
    ).toFixed(4),
    commandsPerSignUp: perMode((m) => m.commands, 2),
    jsonBytesPerSignUp: perMode((m) => m.bytes, 0),
    relayCommandMsPerSignUp: +median(rounds.events.map((m) => m.relayMs)).toFixed(3),
  }),
);
await client.close();
await database.stop();
