/**
 * `npx tsx bench/mail-outbox.ts` (`pnpm bench:mail`): the durable mail outbox (issue 34). On the
 * embedded database with a real SMTP server on 127.0.0.1. A measurement, not a test.
 *
 * 1. Queue cost: BENCH_QUEUE (default 500) mails queued one after another, as a request queues its
 *    mail: the database commands each adds to its request (counted by the driver, and listed; the
 *    send and its record run beside the answer, tagged tessera:mail-outbox) and the time until
 *    `queue` returns, beside a document of the same size inserted alone before each one.
 * 2. Delivery: BENCH_RATE mails a second (default 100) for BENCH_SECONDS (default 20), each sent at
 *    once by the instance that queued it: how many arrived, and when the last one was recorded.
 * 3. Drain: BENCH_DRAIN mails (default 1000) queued while the SMTP server refuses connections, then
 *    the server comes back and the workers (two instances) send the backlog: mails a second.
 */
import { randomBytes } from "node:crypto";
import { createAuth, createSmtpMailer } from "../packages/auth-core/src/index.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { MongoClient } from "../tests/cli/mongodb.ts";
import { startFaultySmtp } from "../tests/support/faulty-smtp.ts";

const QUEUE = Number(process.env.BENCH_QUEUE ?? 500);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const DRAIN = Number(process.env.BENCH_DRAIN ?? 1000);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

const database = await startDevDatabase({ log: () => {} });
const smtp = await startFaultySmtp();
const client = new MongoClient(database.uri, { monitorCommands: true });
const db = client.db(`bench_mail_${randomBytes(3).toString("hex")}`);
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const mailers: ReturnType<typeof createSmtpMailer>[] = [];
const smtpMailer = () => {
  const mailer = createSmtpMailer({ url: smtp.url, from: "Bench <bench@example.com>" });
  mailers.push(mailer);
  return mailer;
};
const open = (worker: boolean) =>
  createAuth({
    database: db,
    secret: "bench-secret-0123456789abcdef012345",
    baseURL: "http://127.0.0.1:3000",
    clock,
    logger: { info: () => {}, warn: () => {}, error: (...args: unknown[]) => console.error(...args) },
    rateLimit: { enabled: false },
    mailer: smtpMailer(),
    mailQueue: { worker, pollInterval: 100, concurrency: 8 },
  });
const auth = open(false);
const message = (n: number) => ({
  to: `bench${n}@example.com`,
  kind: "reset-password" as const,
  subject: "Reset your password",
  text: `Open https://example.com/reset/${n}`,
  html: `<p><a href="https://example.com/reset/${n}">Reset</a></p>`,
});
const expiresAt = () => new Date(clock().getTime() + 3_600_000);
let commands: string[] | null = null;
client.on("commandStarted", (event: { commandName: string; command: Record<string, unknown> }) => {
  if (event.command.comment === "tessera:mail-outbox") return;
  if (["hello", "ismaster", "isMaster", "ping", "endSessions"].includes(event.commandName)) return;
  commands?.push(`${event.commandName}:${String(event.command[event.commandName])}`);
});

try {
  await auth.migrate();
  // 1. Queue cost.
  const took: number[] = [];
  const perQueue: number[] = [];
  const seen = new Map<string, number>();
  // A document of the same size inserted alone, alternating with the queued mails (so under the same
  // load from their sends): what one insert costs on this database, for scale.
  const bare: number[] = [];
  for (let n = 0; n < QUEUE; n++) {
    const bareStart = performance.now();
    await db.collection("bench_bare").insertOne({ ...message(n), state: "queued", attempts: 0, at: clock() });
    bare.push(performance.now() - bareStart);
    commands = [];
    const start = performance.now();
    await auth.context.mailOutbox.queue(message(n), { expiresAt: expiresAt() });
    took.push(performance.now() - start);
    perQueue.push(commands.length);
    for (const command of commands) seen.set(command, (seen.get(command) ?? 0) + 1);
    commands = null;
  }
  await auth.mail.settle();
  console.log(
    `queue: ${QUEUE} mails; commands on the request path per mail: max ${Math.max(...perQueue)} (${[...new Set(perQueue)].join(", ")}); time until queue returns p50 ${ms(percentile(took, 50))}, p99 ${ms(percentile(took, 99))}; the same document inserted alone p50 ${ms(percentile(bare, 50))}, p99 ${ms(percentile(bare, 99))}`,
  );
  console.log(
    `queue: commands seen on the request path: ${[...seen].map(([name, count]) => `${name} ×${count}`).join(", ")}`,
  );

  // 2. Delivery at RATE mails a second.
  const before = smtp.received.length;
  const total = RATE * SECONDS;
  const begin = performance.now();
  const queued: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = begin + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const to = `rate${n}@example.com`;
    queued.push(auth.context.mailOutbox.queue({ ...message(n), to }, { expiresAt: expiresAt() }));
  }
  await Promise.all(queued);
  await auth.mail.settle();
  const sendSeconds = (performance.now() - begin) / 1000;
  const arrived = smtp.received.slice(before);
  const sentRows = await db.collection("mails").countDocuments({ to: /^rate/, state: "sent" });
  console.log(
    `delivery: ${total} mails queued at ${RATE}/s over ${SECONDS} s; ${arrived.length} arrived, ${sentRows} recorded sent, all done after ${sendSeconds.toFixed(1)} s (${(arrived.length / sendSeconds).toFixed(0)} mails/s)`,
  );

  // 3. Drain a backlog left by an outage, with two instances' workers.
  await smtp.goDown();
  for (let n = 0; n < DRAIN; n++)
    await auth.context.mailOutbox.queue(
      { ...message(n), to: `drain${n}@example.com` },
      { expiresAt: expiresAt() },
    );
  await auth.mail.settle();
  await smtp.comeBack();
  offsetMs += 20_000; // past every first retry's due time
  const drainStart = performance.now();
  const drainedBefore = smtp.received.length;
  const workers = [open(true), open(true)];
  while (smtp.received.length - drainedBefore < DRAIN && performance.now() - drainStart < 120_000)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const drained = smtp.received.length - drainedBefore;
  const ids = smtp.countByMessageId();
  const twice = [...ids.values()].filter((count) => count > 1).length;
  console.log(
    `drain: ${drained}/${DRAIN} queued mails sent by two workers in ${drainSeconds.toFixed(1)} s (${(drained / drainSeconds).toFixed(0)} mails/s); Message-IDs received twice: ${twice}`,
  );
  for (const worker of workers) await worker.close();
} finally {
  await auth.close();
  for (const mailer of mailers) mailer.close();
  await client.close();
  await smtp.close();
  await database.stop();
}
