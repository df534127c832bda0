/**
 * The demo as `pnpm dev` runs it (Vite's development server, mails to the dev outbox): the outbox
 * keeps its mails in the app's data directory, so /dev/outbox still shows a reset link mailed before
 * a restart; and neither the server's log nor the browser's console carries i18next's advertisement.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { APP_DIR, CHROMIUM, DEMO, screenshot } from "./app-harness.ts";

let scratch = "";
let browser: Browser;
const dbName = `o_${randomBytes(6).toString("hex")}`;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

interface DevServer {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** `node server.js` in development on the scratch data directory; resolves once it is ready. */
async function startDev(): Promise<DevServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const {
    SMTP_URL: _smtp,
    TESSERA_MAIL: _mail,
    I18NEXT_NO_SUPPORT_NOTICE: _notice,
    ...inherited
  } = process.env;
  const child = spawn(process.execPath, ["server.js"], {
    cwd: APP_DIR,
    env: {
      ...inherited,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      TESSERA_BASE_URL: url,
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: dbName,
      DEMO_RATE_LIMIT: "0",
      DEMO_DATA_DIR: join(scratch, "data"),
      DEMO_VITE_CACHE_DIR: join(scratch, "vite"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the dev server did not start in 120 s:\n${output}`)),
      120_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Tessera demo ready")) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => fail(new Error(`the dev server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** What /dev/outbox shows in Chromium: each mail's subject and links, newest first; and the console. */
async function readOutboxPage(url: string, name: string) {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  const console: string[] = [];
  page.on("console", (message) => console.push(message.text()));
  await page.goto("/dev/outbox");
  await page.locator("h1").first().waitFor();
  await screenshot(page, name);
  const mails = await page.locator("li.mail").evaluateAll((items) =>
    items.map((item) => ({
      subject: item.querySelector("h2")?.textContent ?? "",
      links: [...item.querySelectorAll("a")].map((link) => link.getAttribute("href")),
    })),
  );
  await context.close();
  return { mails, console };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "remix-demo-outbox-"));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});

afterAll(async () => {
  await browser?.close();
  const client = new MongoClient(inject("mongoUri"));
  await client.db(dbName).dropDatabase();
  await client.close();
  await rm(scratch, { recursive: true, force: true });
});

describe("the demo's dev outbox", () => {
  it("still shows a mail sent before a restart, and no start prints i18next's advertisement", async () => {
    const first = await startDev();
    let before: Awaited<ReturnType<typeof readOutboxPage>>;
    try {
      const response = await fetch(`${first.url}/api/auth/request-password-reset`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: first.url },
        body: JSON.stringify({ email: DEMO.grace, redirectTo: "/reset-password" }),
      });
      expect(response.status).toBe(200);
      before = await readOutboxPage(first.url, "dev-outbox-before-restart");
    } finally {
      await first.stop();
    }
    const reset = before.mails.find((mail) => mail.subject === "Reset your Tessera demo password");
    expect(reset?.links).toEqual([expect.stringMatching(/\/api\/auth\/reset-password\/[A-Za-z0-9]+\?/)]);

    const second = await startDev();
    let after: Awaited<ReturnType<typeof readOutboxPage>>;
    try {
      after = await readOutboxPage(second.url, "dev-outbox-after-restart");
    } finally {
      await second.stop();
    }
    expect(after.mails).toEqual(before.mails);

    const logs = [first.output(), second.output(), ...before.console, ...after.console].join("\n");
    expect(logs).not.toMatch(/i18next is|locize/i);
  }, 300_000);
});
