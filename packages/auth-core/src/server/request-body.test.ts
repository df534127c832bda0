import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, startServer } from "./server.ts";

/**
 * Request bodies through the standalone server, which reads them from node:http itself
 * (node-bridge.ts readBodyText), not through a Fetch Request: the same cap, answers and messages
 * as `auth.handler` (http/read-body.test.ts), and nothing stored for a refused body.
 */

const MAX_BYTES = 1000;
const dbName = `srv_body_${randomBytes(6).toString("hex")}`;
let mongo: MongoClient;
let server: RunningServer;
let url: string;
const errors: string[] = [];

beforeAll(async () => {
  mongo = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  server = await startServer({
    log: () => {},
    printMail: () => {},
    env: {
      PORT: "0",
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: dbName,
      TESSERA_SECRET: "s".repeat(32),
    },
    overrides: {
      rateLimit: { enabled: false },
      advanced: { maxBodyBytes: MAX_BYTES },
      logger: {
        info: () => {},
        warn: () => {},
        error: (...args: unknown[]) => errors.push(args.map(String).join(" ")),
      },
    },
  });
  url = `http://127.0.0.1:${server.port}/api/auth`;
});

afterAll(async () => {
  await server?.close();
  await mongo.db(dbName).dropDatabase();
  await mongo.close();
});

const countUsers = () => mongo.db(dbName).collection("users").countDocuments();

function signUp(body: string, contentType: string | null) {
  return fetch(`${url}/sign-up/email`, {
    method: "POST",
    headers: contentType === null ? {} : { "content-type": contentType },
    body,
  });
}

/** One raw HTTP/1.1 exchange: what was answered, and whether the server closed the connection. */
function rawExchange(head: string, body: string[]): Promise<{ answer: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ answer, closed: true }));
    socket.write(head);
    for (const part of body) socket.write(part);
    // A kept connection would stay open: answer what arrived once the server has had its time.
    setTimeout(() => {
      if (!socket.closed) {
        socket.destroy();
        resolve({ answer, closed: false });
      }
    }, 1500);
  });
}

/** A 413 with the catalogue message, the connection closed, and no user stored. */
async function expectTooLarge({ answer, closed }: { answer: string; closed: boolean }, usersBefore: number) {
  expect(answer.startsWith("HTTP/1.1 413")).toBe(true);
  expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
    code: "BODY_TOO_LARGE",
    message: "Request body too large",
  });
  expect(closed).toBe(true);
  expect(await countUsers()).toBe(usersBefore);
}

describe("request bodies through the standalone server", () => {
  it("signs up from a JSON body read straight from node:http, without building a Fetch Request", async () => {
    const original = globalThis.Request;
    let built = 0;
    globalThis.Request = class extends original {
      constructor(...args: ConstructorParameters<typeof Request>) {
        super(...args);
        built++;
      }
    };
    let status = 0;
    try {
      const email = `body-${randomBytes(4).toString("hex")}@example.com`;
      const answer = await signUp(
        JSON.stringify({ email, password: "pass-word-123", name: "B" }),
        "application/json",
      );
      status = answer.status;
      await answer.arrayBuffer();
      expect(await mongo.db(dbName).collection("users").countDocuments({ email })).toBe(1);
    } finally {
      globalThis.Request = original;
    }
    expect(status).toBe(200);
    // The test's own fetch keeps undici's class; only the server could have used the global one.
    expect(built).toBe(0);
  });

  it("answers malformed JSON 400 INVALID_JSON and another type 400 UNSUPPORTED_CONTENT_TYPE, storing nothing", async () => {
    const before = await countUsers();
    const malformed = await signUp('{"email":', "application/json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ code: "INVALID_JSON", message: "Invalid JSON body" });
    const plain = await signUp('{"email":"a@example.com"}', "text/plain");
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      code: "UNSUPPORTED_CONTENT_TYPE",
      message: "Unsupported content type",
    });
    // sign-up/email takes no form: a form body is refused like any other type.
    const form = await signUp(
      "email=a%40example.com&password=pass-word-123&name=A",
      "application/x-www-form-urlencoded",
    );
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({
      code: "UNSUPPORTED_CONTENT_TYPE",
      message: "Unsupported content type",
    });
    expect(await countUsers()).toBe(before);
  });

  it("reads a multi-byte body split across packets as one UTF-8 text", async () => {
    const email = `split-${randomBytes(4).toString("hex")}@example.com`;
    const json = Buffer.from(JSON.stringify({ email, password: "pass-word-123", name: "Zoë Ünal" }));
    // Cut inside "ë" (two bytes): the halves are only text together.
    const cut = json.indexOf(Buffer.from("ë")) + 1;
    const head = `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n`;
    const socket = connect(server.port, "127.0.0.1");
    const reply = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("close", () => resolve(text));
      socket.write(head);
      socket.write(json.subarray(0, cut));
      setTimeout(() => socket.write(json.subarray(cut)), 100);
    });
    expect(reply.startsWith("HTTP/1.1 200")).toBe(true);
    const user = await mongo.db(dbName).collection("users").findOne({ email });
    expect(user?.name).toBe("Zoë Ünal");
  });

  it("answers a declared length past the cap 413 before the body arrives, and closes the connection", async () => {
    const before = await countUsers();
    const head = `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BYTES + 1}\r\n\r\n`;
    await expectTooLarge(await rawExchange(head, []), before);
  });

  it("counts the bytes of a chunked body as they arrive: past the cap 413, the rest unread", async () => {
    const before = await countUsers();
    const head =
      "POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const chunk = `${(600).toString(16)}\r\n${"a".repeat(600)}\r\n`;
    // Two chunks pass the cap; the body never ends, so only the count can answer.
    await expectTooLarge(await rawExchange(head, [chunk, chunk]), before);
  });

  it("keeps serving after a client goes away in the middle of a body", async () => {
    const before = await countUsers();
    const head = `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, "127.0.0.1", () => {
        socket.write(head);
        socket.write('{"email":"gone@example.com",');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    await expect.poll(() => errors.join("\n")).toContain("request body aborted by the client");
    const ok = await fetch(`${url}/ok`);
    expect(ok.status).toBe(200);
    expect(await countUsers()).toBe(before);
  });
});
