/**
 * `npx tsx bench/webhooks.ts`: webhook delivery under a steady stream of changes (issue 33 §4). One
 * createAuth instance with webhooks on, on the embedded database; one receiver on 127.0.0.1; an
 * app-wide endpoint for user.updated. BENCH_RATE changes a second (default 200, admin name updates
 * by the operator API, each writing its user.updated event) for BENCH_SECONDS (default 60). Prints
 * how many were delivered (BENCH_SOURCE=relay: events handed to the relay without a change request,
 * the pipeline alone) and the latency from a change's answer to its delivery's arrival (p50,
 * p99, max), the database commands of the webhook collections per delivery (by command and
 * collection, counted by the driver), those of the change path per change (the update request and
 * its relay into events) and how many connections the receiver saw (keep-alive). A measurement, not
 * a test.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eventOf, startRelay } from "../packages/auth-core/src/features/events/index.ts";
import { createAuth } from "../packages/auth-core/src/index.ts";
import { createOperatorApi } from "../packages/auth-core/src/operator.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { MongoClient } from "../tests/cli/mongodb.ts";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const USERS = Number(process.env.BENCH_USERS ?? 50);
// "relay": the events are handed to the relay directly, as a change does once it has answered (no
// change request): the delivery pipeline alone, apart from what the change path costs the database.
const SOURCE = process.env.BENCH_SOURCE ?? "changes";

const arrived = new Map<string, number>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      data: { changes?: { name?: string } };
    };
    const name = body.data.changes?.name;
    if (name && !arrived.has(name)) arrived.set(name, performance.now());
    response.writeHead(204).end();
  });
});
let connections = 0;
receiver.on("connection", () => connections++);
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const database = await startDevDatabase({ log: () => {} });
const client = new MongoClient(database.uri, { monitorCommands: true });
// Commands of the delivery pipeline (the webhook collections and the fan-out's reads of events),
// counted while the changes run and drain.
const commands = new Map<string, number>();
// The change path's commands (the admin update, its reads, the relay's insert into events), apart.
const changeCommands = new Map<string, number>();
let counting = false;
client.on("commandStarted", (event: { commandName: string; command: Record<string, unknown> }) => {
  if (!counting) return;
  // A getMore names its cursor in the command's first field and its collection in `collection`.
  const collection = String(event.command.collection ?? event.command[event.commandName]);
  const key = `${event.commandName} ${collection}`;
  const delivery =
    /^webhook|^events$/.test(collection) && !(collection === "events" && event.commandName === "insert");
  const counter = delivery ? commands : changeCommands;
  counter.set(key, (counter.get(key) ?? 0) + 1);
});
const auth = createAuth({
  database: client.db(`bench_webhooks_${randomBytes(3).toString("hex")}`),
  secret: "bench-secret-0123456789abcdef012345",
  baseURL: "http://127.0.0.1:3000",
  logger: { info: () => {}, warn: () => {}, error: (...args: unknown[]) => console.error(...args) },
  rateLimit: { enabled: false },
  outbound: { allowPrivateAddresses: true },
  webhooks: { enabled: true, worker: process.env.BENCH_WORKER !== "0" },
});
const api = createOperatorApi(auth, "bench");
try {
  await auth.migrate();
  const userIds: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const { data } = await api.createUser({ body: { email: `bench${i}@example.com`, name: `user ${i}` } });
    userIds.push(data.user.id);
  }
  await api.createWebhookEndpoint({ body: { url, eventTypes: ["user.updated"] } });
  const answered = new Map<string, number>();
  const published = new Map<string, number>();
  auth.context.collections.eventHub.subscribe((events) => {
    for (const event of events) {
      const name = (event.data as { changes?: { name?: string } }).changes?.name;
      if (name) published.set(name, performance.now());
    }
  });
  const inFlight: Promise<unknown>[] = [];
  let failed = 0;
  const total = RATE * SECONDS;
  const start = performance.now();
  counting = true;
  for (let seq = 0; seq < total; seq++) {
    const due = start + (seq * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const name = `change ${seq}`;
    const userId = userIds[seq % USERS]!;
    if (SOURCE === "relay") {
      startRelay(auth.context.collections, [
        eventOf("user.updated", new Date(), { userId }, { userId, changes: { name } }),
      ]);
      answered.set(name, performance.now());
      continue;
    }
    inFlight.push(
      api.adminUpdateUser({ body: { userId, data: { name } } }).then(
        () => answered.set(name, performance.now()),
        () => failed++, // a change the overloaded database did not answer in time: no event
      ),
    );
  }
  await Promise.all(inFlight);
  const sent = (performance.now() - start) / 1000;
  const deadline = performance.now() + 60_000;
  while (arrived.size < total - failed && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  counting = false;
  if (process.env.BENCH_TRACE) {
    const list = [...answered];
    for (let i = 0; i < list.length; i += Math.ceil(list.length / 20)) {
      const [name, at] = list[i]!;
      console.log(
        `${name}: answered ${(at - start).toFixed(0)} ms, stored ${((published.get(name) ?? Number.NaN) - start).toFixed(0)} ms, arrived ${((arrived.get(name) ?? Number.NaN) - start).toFixed(0)} ms`,
      );
    }
  }
  const latencies = [...answered]
    .map(([name, at]) => (arrived.get(name) ?? Number.NaN) - at)
    .filter(Number.isFinite);
  latencies.sort((a, b) => a - b);
  const pick = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(0);
  console.log(`changes: ${total} in ${sent.toFixed(1)} s (${(total / sent).toFixed(0)}/s asked ${RATE}/s)`);
  console.log(`delivered: ${arrived.size} of ${total - failed} answered changes (${failed} failed)`);
  console.log(
    `change answered -> delivery arrived: p50 ${pick(0.5)} ms, p99 ${pick(0.99)} ms, max ${pick(1)} ms`,
  );
  const perDelivery = (n: number) => (n / Math.max(1, arrived.size)).toFixed(2);
  const all = [...commands.values()].reduce((sum, n) => sum + n, 0);
  console.log(`database commands per delivery: ${perDelivery(all)}`);
  for (const [key, n] of [...commands].sort((a, b) => b[1] - a[1]))
    console.log(`  ${key}: ${perDelivery(n)} (${n})`);
  const perChange = (n: number) => (n / Math.max(1, total - failed)).toFixed(2);
  const changeAll = [...changeCommands.values()].reduce((sum, n) => sum + n, 0);
  console.log(`database commands per change (request and relay): ${perChange(changeAll)}`);
  for (const [key, n] of [...changeCommands].sort((a, b) => b[1] - a[1]))
    console.log(`  ${key}: ${perChange(n)} (${n})`);
  console.log(`receiver connections: ${connections}`);
} finally {
  await auth.close();
  await client.close();
  receiver.close();
  await database.stop();
}
