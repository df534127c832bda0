/**
 * Browser tests of apps/remix-demo: the production build served by its own server.js on a fresh
 * database of the test server, mails to a real SMTP sink, Debian's Chromium driven by playwright-core.
 * One app and one browser per test file (docs: keep CI lean).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { type Db, MongoClient } from "mongodb";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, vi } from "vitest";
import { standIn } from "#test/test-auth.ts";
import { type SmtpSink, startSmtpSink } from "../e2e/smtp-sink.ts";

const ROOT = resolve(import.meta.dirname, "../..");
export const APP_DIR = join(ROOT, "apps/remix-demo");
const SCREENSHOTS = join(ROOT, ".reports/screenshots");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const DEMO = {
  admin: { email: "admin@example.com", password: "tessera-demo-admin", name: "Ada Admin" },
  password: "tessera-demo-user",
  grace: "grace@example.com",
  alan: "alan@example.com",
  linus: "linus@example.com",
  barbara: "barbara@example.com",
  invitee: "margaret@example.com",
};

export interface TestApp {
  url: string;
  db: Db;
  smtp: SmtpSink;
  browser: Browser;
  /** Everything the app's server printed (stdout and stderr) so far. */
  log(): string;
  /** A fresh browser context (cookies), with or without JavaScript. */
  newPage(options?: { javaScript?: boolean; locale?: string }): Promise<Page>;
  close(): Promise<void>;
}

/** Builds the app once per change of its sources; concurrent test files wait for one build. */
export async function buildApp(): Promise<void> {
  const lock = join(APP_DIR, ".build-lock");
  for (let waited = 0; ; waited += 500) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (waited > 300_000) throw new Error("waited 5 minutes for another build of remix-demo");
      await new Promise((done) => setTimeout(done, 500));
    }
  }
  try {
    if (await isBuildFresh()) return;
    await promisify(execFile)(join(APP_DIR, "node_modules/.bin/remix"), ["vite:build"], {
      cwd: APP_DIR,
      env: { ...process.env, NODE_ENV: "production" },
      maxBuffer: 16 * 1024 * 1024,
    });
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function isBuildFresh(): Promise<boolean> {
  const built = await stat(join(APP_DIR, "build/server/index.js")).catch(() => null);
  if (!built) return false;
  const { readdir } = await import("node:fs/promises");
  const sources = [join(APP_DIR, "app"), join(ROOT, "packages/auth-core/src")];
  for (const dir of sources) {
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const info = await stat(join(entry.parentPath, entry.name));
      if (info.mtimeMs > built.mtimeMs) return false;
    }
  }
  return true;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/**
 * The browser tests' fixture: the built app (startTestApp) for every test of the file, started
 * before them and closed after them. `env` adds settings (a function when they are known only once
 * another fixture has started, e.g. useOAuthServer's endpoints). A browser flow runs on two shared
 * cores: a test may take `testTimeout` (each step still waits at most 10 s).
 */
export function useTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: {
    testTimeout?: number;
    /**
     * The host name of the app's URL. "localhost" for passkeys: WebAuthn refuses an IP address as
     * the relying party id, and Chromium treats http://localhost as a secure context.
     * @default "127.0.0.1"
     */
    host?: "127.0.0.1" | "localhost";
  } = {},
): TestApp {
  vi.setConfig({ testTimeout: options.testTimeout ?? 90_000 });
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(typeof env === "function" ? env() : env, options.host);
  }, 300_000);
  afterAll(async () => {
    await app?.close();
  });
  return standIn(() => app, "useTestApp: the app starts in beforeAll; use it in a test");
}

/** Starts the built app on its own database and SMTP sink, and one Chromium. `env` adds settings. */
async function startTestApp(env: Record<string, string> = {}, host = "127.0.0.1"): Promise<TestApp> {
  await buildApp();
  const smtp = await startSmtpSink();
  const port = await freePort();
  const url = `http://${host}:${port}`;
  const dbName = `b_${randomBytes(6).toString("hex")}`;
  const mongoUri = inject("mongoUri");
  const child = spawn(process.execPath, ["server.js"], {
    cwd: APP_DIR,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      TESSERA_BASE_URL: url,
      TESSERA_SECRET: "browser-test-secret-0123456789abcdef",
      MONGODB_URI: mongoUri,
      TESSERA_DB_NAME: dbName,
      SMTP_URL: smtp.url,
      DEMO_SEED: "1",
      DEMO_RATE_LIMIT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const record = (chunk: Buffer) => {
    log += chunk.toString();
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  await waitForReady(child);
  const client = new MongoClient(mongoUri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(dbName);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  });
  const contexts: BrowserContext[] = [];
  return {
    url,
    db,
    smtp,
    browser,
    log: () => log,
    async newPage({ javaScript = true, locale = "en-US" } = {}) {
      const context = await browser.newContext({ javaScriptEnabled: javaScript, baseURL: url, locale });
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      child.kill("SIGTERM");
      await new Promise((done) => child.once("exit", done));
      await db.dropDatabase().catch(() => {});
      await client.close();
      await smtp.close();
    },
  };
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((done, fail) => {
    let output = "";
    const timer = setTimeout(() => fail(new Error(`remix-demo did not start in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Tessera demo ready")) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.DEMO_LOG) process.stderr.write(chunk);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`remix-demo exited with ${code}:\n${output}`));
    });
  });
}

/** Saves a full-page screenshot under .reports/screenshots/<file>-<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

let axeSource: string | null = null;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page; fails on any serious or critical violation (WCAG 2.x A/AA rules). */
export async function expectAccessible(page: Page): Promise<void> {
  axeSource ??= (await import("axe-core")).default.source;
  const hasAxe = await page.evaluate("typeof window.axe !== 'undefined'");
  // Evaluated through DevTools, not as an inline <script>: the app's CSP refuses scripts without its nonce.
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = (await page.evaluate(`
    window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))
  `)) as AxeViolation[];
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    blocking.map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}

/** The current 6-digit TOTP (RFC 6238, SHA-1, 30 s) of an otpauth:// URI's base32 secret. */
export async function totpNow(secretBase32: string, at = Date.now()): Promise<string> {
  const { createHmac } = await import("node:crypto");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secretBase32.replace(/=+$/, "").toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const bytes = Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac("sha1", bytes).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}

/** The visible text of the first element the locator finds, trimmed ("" when none). */
async function textOf(locator: Locator): Promise<string> {
  const first = locator.first();
  if ((await first.count()) === 0) return "";
  // innerText on purpose: the text as a person sees it (table cells apart, hidden text left out),
  // which the assertions state; textContent ran cells together ("admin26").
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is asserted.
  return ((await first.innerText()) ?? "").trim();
}

/** Waits for the locator's first element, then returns its trimmed text. */
export async function waitText(locator: Locator): Promise<string> {
  await locator.first().waitFor({ timeout: 10_000 });
  return textOf(locator);
}

/** Waits (up to 10 s) until the locator's text is `expected`. */
export async function expectText(locator: Locator, expected: string | RegExp): Promise<void> {
  const poll = expect.poll(() => textOf(locator), { timeout: 10_000 });
  if (typeof expected === "string") await poll.toBe(expected);
  else await poll.toMatch(expected);
}

export async function expectPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 10_000 });
}

export function heading(page: Page): Locator {
  return page.getByRole("heading", { level: 1 });
}
