import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAuth, createDevOutbox } from "@tessera/auth-core";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { answers, crashChildren, poster, signUpPeople } from "#test/crash-server.ts";

/**
 * Issue 34, docs/architecture.md "Mail": a server process is SIGKILLed while request loops ask for
 * deletion links, password resets (for known and unknown addresses), invite addresses and sign up,
 * again and again on one database; each kill cuts the requests in flight at random points — before
 * the mail's row, between it and what its link opens (a token, an invitation, a user), before the
 * send, before its outcome is recorded. Afterwards everything a link opens has its mail, no server
 * sent a mail whose link opens nothing, and another instance's worker sends every mail the dead
 * servers left queued, once.
 */
const CHILD = join(import.meta.dirname, "crash-child.ts");
const SECRET = "mail-crash-test-secret-0123456789abcdef0123456789";
/** Kills, and request loops each kill cuts: 3 × 32 loops interrupted at random points. */
const KILLS = 3;
const LOOPS = 32;
/** The people of the loops (sign-ups cost scrypt: few of them, each with a few loops). */
const PEOPLE = 8;
const KINDS = ["delete-account", "reset-password", "invitation", "verify-email"] as const;
type Kind = (typeof KINDS)[number];
/** The loops' kinds in turn: resets most (their window is the shortest), sign-ups least (scrypt). */
const PLAN: readonly Kind[] = [
  "delete-account",
  "reset-password",
  "invitation",
  "reset-password",
  "verify-email",
  "reset-password",
  "invitation",
  "delete-account",
];

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

interface Person {
  email: string;
  cookie: string;
  organizationId: string;
}

const fresh = (prefix: string) => `${prefix}-${randomBytes(5).toString("hex")}@example.com`;

/** One kind of request over and over until the server dies; every answer is a 200. */
async function requestLoop(url: string, kind: Kind, person: Person, loop: number): Promise<void> {
  const post = poster(url);
  const request = (n: number) => {
    if (kind === "delete-account") return post("/delete-user", {}, person.cookie);
    // Every fourth reset asks for an address nobody has: its rows are inert, never mailed.
    if (kind === "reset-password")
      return post("/request-password-reset", { email: n % 4 === 3 ? fresh("nobody") : person.email });
    if (kind === "invitation")
      return post(
        "/organization/invite-member",
        { organizationId: person.organizationId, email: fresh(`invitee${loop}`), role: "member" },
        person.cookie,
      );
    const email = fresh(`new${loop}`);
    return post("/sign-up/email", { name: email, email, password: "correct horse battery" });
  };
  try {
    for (let n = 0; ; n++) {
      const res = await request(n);
      expect(res.status, `${kind}: ${await res.clone().text()}`).toBe(200);
    }
  } catch (error) {
    // the server was killed (a failed expectation is not a network error)
    if ((error as Error).name === "AssertionError") throw error;
  }
}

/** What a mail's link opens, as the test finds it stored: a token's identifier, an invitation's or a user's id. */
function targetOf(kind: string, text: string): string {
  if (kind === "delete-account" || kind === "reset-password") {
    const token =
      kind === "delete-account"
        ? /[?&]token=([0-9a-z]{32})/.exec(text)?.[1]
        : /\/reset-password\/([^?\s&"]+)/.exec(text)?.[1];
    expect(token, text).toBeDefined();
    const hash = createHash("sha256").update(token!).digest("base64url");
    return kind === "delete-account" ? `delete-account-${hash}` : `reset-password:${hash}`;
  }
  if (kind === "invitation") {
    const id = /\/accept-invitation\/([0-9a-f]{24})/.exec(text)?.[1];
    expect(id, text).toBeDefined();
    return id!;
  }
  const jwt = /[?&]token=([\w-]+\.[\w-]+\.[\w-]+)/.exec(text)?.[1];
  expect(jwt, text).toBeDefined();
  return (JSON.parse(Buffer.from(jwt!.split(".")[1]!, "base64url").toString()) as { sub: string }).sub;
}

/** What exists for each kind's links to open. */
async function storedTargets(): Promise<Record<Kind, Set<string>>> {
  const identifiers = async (prefix: string) =>
    new Set(
      (
        await db
          .collection("verifications")
          .find({ identifier: { $regex: `^${prefix}` } })
          .toArray()
      )
        // A reset row for an unknown address names nobody and is expired on arrival: no link opens it.
        .filter((row) => row.value !== "")
        .map((row) => row.identifier as string),
    );
  const ids = async (collection: string, filter: object) =>
    new Set((await db.collection(collection).find(filter).toArray()).map((row) => row._id.toHexString()));
  return {
    "delete-account": await identifiers("delete-account-"),
    "reset-password": await identifiers("reset-password:"),
    invitation: await ids("invitations", { status: "pending" }),
    "verify-email": await ids("users", { emailVerified: false }),
  } as Record<Kind, Set<string>>;
}

describe("mails survive a server killed between the mail and what its link opens", () => {
  it(`${KILLS} kills cutting ${LOOPS} request loops each: everything a link opens has its mail, no mail links to nothing, and a worker sends what was left queued once`, async () => {
    let people: Person[] = [];
    const phase = (name: string) => console.info(`[mail crash] ${name} at ${Date.now() - began} ms`);
    const began = Date.now();
    // Each server's modules load while the one before it serves (tests/support/crash-server.ts).
    const children = crashChildren(CHILD, { dbName, secret: SECRET, env: { TESSERA_MAIL_FILE: mailFile } });
    for (let kill = 0; kill < KILLS; kill++) {
      const { child, url } = await children.next();
      if (kill === 0) {
        const post = poster(url);
        people = await Promise.all(
          (await signUpPeople(url, PEOPLE)).map(async (person, i) => {
            const res = await post("/organization/create", { name: `o${i}`, slug: `o${i}` }, person.cookie);
            return { ...person, organizationId: ((await res.json()) as { id: string }).id };
          }),
        );
      }
      phase(`server ${kill} up`);
      answers.count = 0;
      const loops = Array.from({ length: LOOPS }, (_, i) =>
        requestLoop(url, PLAN[i % PLAN.length]!, people[i % PEOPLE]!, i),
      );
      const killAfter = LOOPS + Math.floor(Math.random() * 3 * LOOPS);
      const started = Date.now();
      while (answers.count < killAfter && Date.now() - started < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill("SIGKILL");
      await Promise.all(loops);
      phase(`kill ${kill} (${answers.count} answers)`);
    }
    await children.close();
    // The killed servers' last commands may still be running in the database.
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Every mail the servers sent (their mail file), by row (its message id names it).
    const sentLines = readFileSync(mailFile, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { text: string; kind: string; messageId: string });
    const sentRows = new Map<string, number>();
    for (const line of sentLines) sentRows.set(line.messageId, (sentRows.get(line.messageId) ?? 0) + 1);
    // No row was sent twice by the servers while they lived.
    expect([...sentRows].filter(([, count]) => count > 1)).toEqual([]);

    const targets = await storedTargets();
    const rows = await db.collection("mails").find({}).toArray();
    const messageIdOf = (row: { _id: { toHexString(): string } }) =>
      `<${row._id.toHexString()}@tessera.outbox>`;
    const textOf = new Map(sentLines.map((line) => [line.messageId, line.text]));
    const figures: Record<string, unknown> = {};
    for (const kind of KINDS) {
      // Each row's link: from its body while queued, from the mail file once sent.
      const linked = new Map<string, number>();
      for (const row of rows.filter((mail) => mail.kind === kind)) {
        const text = (row.text as string | null) ?? textOf.get(messageIdOf(row));
        if (text === undefined || text === null) {
          // Never sent and without a body: dropped (a reset for nobody, a link that was not stored).
          expect(row.state, `${kind} row ${row._id}`).toBe("dropped");
          continue;
        }
        const target = targetOf(kind, text);
        linked.set(target, (linked.get(target) ?? 0) + 1);
      }
      // Everything a link opens has its mail: sent, or queued with its body for a worker to send.
      const unmailed = [...targets[kind]].filter((target) => !linked.has(target));
      expect.soft(unmailed, `${kind}: stored but never mailed`).toEqual([]);
      // One row per token (an invitation or a user is mailed once here too).
      expect
        .soft(
          [...linked].filter(([, count]) => count > 1),
          `${kind}: mailed twice`,
        )
        .toEqual([]);
      // No server sent a mail whose link opens nothing: its row went first, the send after the write.
      const sentToNothing = sentLines
        .filter((line) => line.kind === kind)
        .filter((line) => !targets[kind].has(targetOf(kind, line.text)));
      expect
        .soft(
          sentToNothing.map((line) => line.messageId),
          `${kind}: sent, opens nothing`,
        )
        .toEqual([]);
      const queued = rows.filter((row) => row.kind === kind && row.state === "queued");
      figures[kind] =
        `${targets[kind].size} stored, ${linked.size} linked rows, ${queued.length} left queued, ${linked.size - targets[kind].size} dead links`;
    }
    const inert = rows.filter((row) => row.to === "");
    expect(inert.every((row) => row.state === "dropped" && row.text === null && row.userId === null)).toBe(
      true,
    );
    console.info(`[mail crash] ${JSON.stringify({ ...figures, inert: inert.length })}`);

    // Another instance, past the dead servers' leases: its worker sends each queued mail once.
    const queued = rows.filter((row) => row.state === "queued");
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
    expect(
      outbox
        .messages()
        .map((mail) => mail.messageId)
        .sort(),
    ).toEqual(queued.map(messageIdOf).sort());
    expect(await db.collection("mails").countDocuments({ state: "queued" })).toBe(0);
  }, 150_000);
});
