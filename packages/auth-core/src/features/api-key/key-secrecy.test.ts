import { randomBytes } from "node:crypto";
import { type CommandStartedEvent, MongoClient } from "mongodb";
import { afterEach, describe, expect, inject, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { TEST_ORIGIN, TEST_SECRET } from "#test/test-auth.ts";
import { createAuth } from "../../create-auth.ts";
import type { CreatedApiKey } from "./types.ts";

/**
 * Matrix K6: the key is a secret the database never sees — not stored, and not even sent in a query
 * (where a slow-query log or a profiler would keep it). Every command the driver sends is inspected.
 */
let client: MongoClient | null = null;
afterEach(async () => {
  await client
    ?.db()
    .dropDatabase()
    .catch(() => {});
  await client?.close();
});

describe("the key never reaches the database", () => {
  it("create, verify and an x-api-key request send only its hash", async () => {
    client = new MongoClient(inject("mongoUri"), { monitorCommands: true });
    const db = client.db(`t_${randomBytes(6).toString("hex")}`);
    const sent: string[] = [];
    client.on("commandStarted", (event: CommandStartedEvent) => sent.push(JSON.stringify(event.command)));
    const auth = createAuth({
      database: db,
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      rateLimit: { enabled: false },
      apiKey: { enableSessionForAPIKeys: true },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await auth.migrate();
    const browser = new TestBrowser(auth);
    await browser.post("/sign-up/email", {
      name: "Ada",
      email: "ada@example.com",
      password: "correct horse battery",
    });
    const created = (await browser.post<CreatedApiKey>("/api-key/create", { name: "k" })).body;
    expect(created.key).toHaveLength(64);
    expect((await auth.api.verifyApiKey({ body: { key: created.key } })).data).toMatchObject({
      valid: true,
    });
    const viaHeader = await new TestBrowser(auth, null).post(
      "/update-user",
      { name: "K" },
      { headers: { "x-api-key": created.key } },
    );
    expect(viaHeader.status).toBe(200);
    expect(sent.some((command) => command.includes('"apiKeys"'))).toBe(true);
    // Only the visible start may appear; no longer run of the key's characters.
    const secretPart = created.key.slice(6);
    expect(sent.filter((command) => command.includes(secretPart.slice(0, 16)))).toEqual([]);
  });
});
