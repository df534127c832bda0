import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAuth, createDevOutbox } from "@tessera/auth-core";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { answers, poster, signUpPeople, startCrashChild } from "#test/crash-server.ts";

/**
 * Issue 34, docs/architecture.md "Mail": a server process is SIGKILLed while delete-user requests
 * ask for their confirmation link, again and again on one database; each kill cuts the requests in
 * flight at random points — before the mail's row, between it and the link's token, before the
 * send, before its outcome is recorded. Afterwards every stored token has its mail, one row each,
 * and another instance's worker sends every mail the dead servers left queued, once.
 */
const CHILD = join(import.meta.dirname, "crash-child.ts");
const SECRET = "mail-crash-test-secret-0123456789abcdef0123456789";
/** Kills, and request loops each kill cuts: 3 × 30 loops interrupted at random points. */
const KILLS = 3;
const LOOPS = 30;
/** The people of the loops (sign-ups cost scrypt: few of them, each with 3 loops). */
const PEOPLE = 10;

let mongo: MongoClient;
let db: Db;
const dbName = `mail_crash_${randomBytes(4).toString("hex")}`;
const folder = mkdtempSync(join(tmpdir(), "tessera-mail-crash-"));
const mailFile = join(folder, "mails.jsonl");

beforeAll(async () => {
  mongo = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  db = mongo.db(dbName);
});
afterAll(async () => {
  await db?.dropDatabase().catch(() => {});
  await mongo?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Asks for the account's deletion link over and over until the server dies. */
async function requestLoop(url: string, person: { cookie: string }): Promise<void> {
  const post = poster(url);
  try {
    for (;;) {
      const res = await post("/delete-user", {}, person.cookie);
      expect(res.status).toBe(200);
    }
  } catch {
    // the server was killed
  }
}

/** The stored identifier of the delete-account token a mail's text links to (features/deletion/rules.ts). */
function identifierOfLink(text: string): string {
  const token = /[?&]token=([0-9a-z]{32})/.exec(text)?.[1];
  expect(token, text).toBeDefined();
  return `delete-account-${createHash("sha256").update(token!).digest("base64url")}`;
}

describe("delete-account mails survive a server killed between the mail and its token", () => {
  it(`${KILLS} kills cutting ${LOOPS} request loops each: every token has its mail, and a worker sends what was left queued once`, async () => {
    let people: { email: string; cookie: string }[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const { child, url } = await startCrashChild(CHILD, {
        dbName,
        secret: SECRET,
        env: { TESSERA_MAIL_FILE: mailFile },
      });
      if (kill === 0) people = await signUpPeople(url, PEOPLE);
      answers.count = 0;
      const loops = Array.from({ length: LOOPS }, (_, i) => requestLoop(url, people[i % PEOPLE]!));
      const killAfter = LOOPS + Math.floor(Math.random() * 3 * LOOPS);
      const started = Date.now();
      while (answers.count < killAfter && Date.now() - started < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill("SIGKILL");
      await Promise.all(loops);
    }
    // The killed servers' last commands may still be running in the database.
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Every link that went out (the servers' mail file) or is still queued with its body.
    const mailed = new Map<string, number>();
    const sentLines = readFileSync(mailFile, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { text: string; kind: string });
    for (const line of sentLines.filter((mail) => mail.kind === "delete-account")) {
      const identifier = identifierOfLink(line.text);
      mailed.set(identifier, (mailed.get(identifier) ?? 0) + 1);
    }
    const rows = await db.collection("mails").find({ kind: "delete-account" }).toArray();
    const rowsByLink = new Map<string, number>();
    for (const row of rows.filter((mail) => typeof mail.text === "string")) {
      const identifier = identifierOfLink(row.text);
      rowsByLink.set(identifier, (rowsByLink.get(identifier) ?? 0) + 1);
    }
    const tokens = await db
      .collection("verifications")
      .find({ identifier: { $regex: "^delete-account-" } })
      .toArray();
    // No token without its mail: sent, or queued with its body for a worker to send.
    const unmailed = tokens.filter((row) => !mailed.has(row.identifier) && !rowsByLink.has(row.identifier));
    expect(unmailed.map((row) => row.identifier)).toEqual([]);
    // One row per link.
    expect([...rowsByLink.values()].filter((count) => count > 1)).toEqual([]);
    const queued = rows.filter((row) => row.state === "queued");
    console.info(
      `${tokens.length} tokens, ${rows.length} mail rows, ${queued.length} left queued by the kills, ${rows.length - tokens.length} rows whose token was never stored`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(tokens.length);

    // Another instance, past the dead servers' leases: its worker sends each queued mail once.
    const outbox = createDevOutbox({ print: () => {}, limit: 100_000 });
    const auth = createAuth({
      database: db,
      secret: SECRET,
      mailer: outbox,
      clock: () => new Date(Date.now() + 120_000),
      mailQueue: { worker: false },
      logger: { info() {}, warn() {}, error() {} },
    });
    await auth.mail.runPass();
    await auth.mail.runPass();
    await auth.mail.settle();
    await auth.close();
    const resent = outbox.messages().filter((mail) => mail.kind === "delete-account");
    expect(resent.map((mail) => mail.messageId).sort()).toEqual(
      queued.map((row) => `<${row._id.toHexString()}@tessera.outbox>`).sort(),
    );
    expect(await db.collection("mails").countDocuments({ kind: "delete-account", state: "queued" })).toBe(0);
  }, 120_000);
});
