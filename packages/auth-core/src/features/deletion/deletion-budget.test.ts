import { randomBytes } from "node:crypto";
import { type Auth, createAuth, createDevOutbox } from "@tessera/auth-core";
import { type CommandStartedEvent, type Db, MongoClient } from "mongodb";
import { afterEach, describe, expect, inject, it } from "vitest";
import { TestBrowser } from "../../../../../tests/support/browser.ts";
import { TEST_ORIGIN, TEST_SECRET } from "../../../../../tests/support/test-auth.ts";
import { deleteLinkFrom, signUpUser } from "./deletion-test-helpers.ts";

/**
 * Database commands per deletion request (STYLE.md), named `command:collection`. Rate limiting is
 * off here so the count is deletion's own (the limiter's counter is measured by the session budget).
 */
const DRIVER_COMMANDS = new Set(["hello", "ismaster", "isMaster", "ping", "endSessions"]);

let client: MongoClient;
let db: Db;
let seen: string[] | null = null;
afterEach(async () => {
  await db.dropDatabase().catch(() => {});
  await client.close();
});

async function createMeteredAuth(sendDeleteAccountVerification: boolean) {
  client = new MongoClient(inject("mongoUri"), { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
  db = client.db(`t_delete_budget_${randomBytes(6).toString("hex")}`);
  const outbox = createDevOutbox({ print: () => {} });
  const auth: Auth = createAuth({
    database: db,
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    mailer: outbox,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    rateLimit: { enabled: false },
    user: { deleteUser: { enabled: true, sendDeleteAccountVerification } },
  });
  await auth.migrate();
  client.on("commandStarted", (event: CommandStartedEvent) => {
    if (seen === null || DRIVER_COMMANDS.has(event.commandName)) return;
    seen.push(`${event.commandName}:${String(event.command[event.commandName])}`);
  });
  return { auth, outbox };
}

async function count(run: () => Promise<unknown>): Promise<string[]> {
  seen = [];
  await run();
  const commands = seen;
  seen = null;
  return commands;
}

const CASCADE = ["delete:sessions", "delete:users", "delete:accounts", "delete:verifications"];

describe("database commands per deletion request", () => {
  it("delete-user with a fresh session: 2 reads, then the 4-step cascade", async () => {
    const { auth } = await createMeteredAuth(false);
    const ada = new TestBrowser(auth);
    await signUpUser(ada, "ada@example.com");
    const commands = await count(() => ada.post("/delete-user", {}));
    expect(commands).toEqual(["find:sessions", "find:users", ...CASCADE]);
  });

  it("delete-user asking for the mail: 2 reads and 1 insert; the link: 2 reads, a find-then-delete consume, the cascade", async () => {
    const { auth, outbox } = await createMeteredAuth(true);
    const ada = new TestBrowser(auth);
    await signUpUser(ada, "ada@example.com");
    const request = await count(() => ada.post("/delete-user", {}));
    expect(request).toEqual(["find:sessions", "find:users", "insert:verifications"]);
    const link = deleteLinkFrom(outbox.latestTo("ada@example.com")?.text ?? "");
    const confirm = await count(() => ada.get(link.path));
    expect(confirm).toEqual([
      "find:sessions",
      "find:users",
      "find:verifications",
      "delete:verifications",
      ...CASCADE,
    ]);
  });
});
