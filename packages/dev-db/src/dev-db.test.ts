import { connect } from "node:net";
import { MongoClient, MongoServerError } from "mongodb";
import { describe, expect, it } from "vitest";
import { startDevDatabase } from "./index.ts";

function envWithoutMongoUri(): NodeJS.ProcessEnv {
  const { MONGODB_URI: _ignored, ...env } = process.env;
  return env;
}

function portOf(uri: string): number {
  return Number(new URL(uri).port);
}

function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("startDevDatabase", () => {
  it("starts a real MongoDB-protocol server that stores documents and enforces unique indexes", async () => {
    const lines: string[] = [];
    const database = await startDevDatabase({ env: envWithoutMongoUri(), log: (line) => lines.push(line) });
    expect(database.backend).not.toBe("env");
    expect(lines.at(-1)).toBe(`mongo backend: ${database.description}`);
    const client = new MongoClient(database.uri);
    try {
      const users = client.db("dev_db_test").collection<{ email: string; name: string }>("users");
      await users.createIndex({ email: 1 }, { unique: true });
      await users.insertOne({ email: "ada@example.com", name: "Ada" });
      expect(await users.findOne({ email: "ada@example.com" })).toMatchObject({ name: "Ada" });

      const duplicate = await users
        .insertOne({ email: "ada@example.com", name: "Eve" })
        .catch((e: unknown) => e);
      expect(duplicate).toBeInstanceOf(MongoServerError);
      expect((duplicate as MongoServerError).code).toBe(11000);
    } finally {
      await client.close();
      await database.stop();
    }
    expect(await isPortOpen(portOf(database.uri))).toBe(false);
  });

  it("returns MONGODB_URI as is when it is set", async () => {
    const uri = "mongodb://user:secret@db.example.invalid:27017/tessera?authSource=admin";
    const lines: string[] = [];
    const database = await startDevDatabase({ env: { MONGODB_URI: uri }, log: (line) => lines.push(line) });
    expect(database.uri).toBe(uri);
    expect(database.backend).toBe("env");
    expect(lines.join("\n")).not.toContain("secret");
    await database.stop();
  });
});
