/**
 * The demo in production (`NODE_ENV=production node server.js`, the built app)
 * without SMTP_URL had no outbox anyone could read and lost every mail; it refuses to start unless
 * mail is turned off on purpose (TESSERA_MAIL=disabled), which the start then says loudly.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { APP_DIR, buildApp } from "./app-harness.ts";

interface Run {
  code: number | null;
  output: string;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The production server with `env`, until it exits; once it says it is ready, `whenReady` runs and it is stopped. */
async function runProduction(
  env: Record<string, string>,
  whenReady?: (url: string) => Promise<void>,
): Promise<Run> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { SMTP_URL: _smtp, TESSERA_MAIL: _mail, ...inherited } = process.env;
  const child = spawn(process.execPath, ["server.js"], {
    cwd: APP_DIR,
    env: {
      ...inherited,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      TESSERA_BASE_URL: url,
      TESSERA_SECRET: "production-mail-test-secret-0123456789",
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: dbName,
      DEMO_RATE_LIMIT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let readyRun: Promise<void> | null = null;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (!readyRun && output.includes("Tessera demo ready")) {
      readyRun = (whenReady?.(url) ?? Promise.resolve()).finally(() => child.kill("SIGTERM"));
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((done) => child.once("exit", done));
  clearTimeout(timer);
  await readyRun;
  return { code, output };
}

const dbName = `m_${randomBytes(6).toString("hex")}`;

beforeAll(() => buildApp(), 300_000);
afterAll(async () => {
  const { MongoClient } = await import("mongodb");
  const client = new MongoClient(inject("mongoUri"));
  await client.db(dbName).dropDatabase();
  await client.close();
});

describe("the demo in production without SMTP_URL", () => {
  it("refuses to start, naming SMTP_URL and the opt-out, before it listens", async () => {
    const run = await runProduction({});
    expect(run.code).toBe(1);
    expect(run.output.trim()).toBe(
      "remix-demo cannot start: SMTP_URL must be set in production (smtp://user:pass@host:587 or " +
        "smtps://…:465): without it no verification, password reset or invitation mail reaches anyone. " +
        "To run without mail on purpose, set TESSERA_MAIL=disabled.",
    );
  }, 90_000);

  it("refuses a TESSERA_MAIL it does not know", async () => {
    const run = await runProduction({ TESSERA_MAIL: "off" });
    expect(run.code).toBe(1);
    expect(run.output.trim()).toBe(
      'remix-demo cannot start: TESSERA_MAIL must be unset or "disabled", not "off"',
    );
  }, 90_000);

  it("starts with TESSERA_MAIL=disabled, says at start which mails will be lost, and says so for each", async () => {
    let answer: { status: number; body: unknown } | null = null;
    const run = await runProduction({ TESSERA_MAIL: "disabled" }, async (url) => {
      const response = await fetch(`${url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({
          email: "nomail@example.com",
          password: "a-long-enough-passphrase-9",
          name: "No Mail",
        }),
      });
      answer = { status: response.status, body: await response.json() };
      // The warning of the sign-up's verification mail is written before the answer; give the pipe a moment.
      await new Promise((done) => setTimeout(done, 200));
    });
    expect(run.output).toContain("Tessera demo ready");
    expect(run.output).toContain(
      [
        "  WARNING: mail is disabled (TESSERA_MAIL=disabled). These mails will be lost:",
        "    email verification, password reset, email change confirmation and notice, account",
        "    deletion confirmation, organization invitations, emailed two-factor codes, API keys",
        "    revoked notices. Set SMTP_URL to send them.",
      ].join("\n"),
    );
    expect(run.output).not.toContain("dev outbox");
    expect(answer).toMatchObject({ status: 200 });
    expect(run.output).toContain("[remix-demo] mail not sent (TESSERA_MAIL=disabled): verify-email");
  }, 90_000);
});
