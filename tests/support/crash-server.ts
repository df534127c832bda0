import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inject } from "vitest";

/**
 * The harness of the kill tests (tests/events/crash.test.ts, tests/mail/crash.test.ts): a server
 * child on the test database, SIGKILLed while loops of requests run against it; the POSTs those
 * loops send, counted so that a kill can wait for some answers; the people they act as.
 */

const TSX = pathToFileURL(
  join(import.meta.dirname, "..", "..", "node_modules", "tsx", "dist", "loader.mjs"),
).href;

/**
 * Starts `script` (a child that listens on PORT and prints its URL as its first line) with the test
 * database's URI, `dbName`, `secret` and any other `env`.
 */
export function startCrashChild(
  script: string,
  settings: { dbName: string; secret: string; env?: Record<string, string> },
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", TSX, script], {
    env: {
      PATH: process.env.PATH,
      PORT: "0",
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: settings.dbName,
      TESSERA_SECRET: settings.secret,
      ...settings.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve({ child, url: line.trim() });
    });
    child.on("exit", (code) => reject(new Error(`crash child exited with ${code} before listening`)));
  });
}

/** Answers received by the loops of the current server (reset before each; a kill waits for some). */
export const answers = { count: 0 };

/** A POST of JSON to the server at `url`, with its origin and a session cookie when given. */
export function poster(url: string) {
  const origin = new URL(url).origin;
  return (path: string, body: unknown, cookie = "") =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    }).then((res) => {
      answers.count++;
      return res;
    });
}

/** `count` people signed up once (scrypt is the slow part); their sessions outlive the kills. */
export async function signUpPeople(url: string, count: number): Promise<{ email: string; cookie: string }[]> {
  const post = poster(url);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const email = `p${i}@example.com`;
      const res = await post("/sign-up/email", { name: email, email, password: "correct horse battery" });
      const cookie = res.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      return { email, cookie };
    }),
  );
}
