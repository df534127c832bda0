/**
 * The demo as `pnpm dev` runs it — Vite's development server, on a dependency cache it has never
 * filled — visited page by page in Chromium: Vite must not meet a dependency it did not pre-bundle
 * at start, since it then re-bundles and reloads the open page (a newcomer's first two-factor
 * set-up vanished that way). vite.config.ts lists the dependencies.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test, vi } from "vitest";
import { APP_DIR, CHROMIUM, DEMO, waitText } from "./app-harness.ts";

vi.setConfig({ testTimeout: 240_000 });

let server: ChildProcess;
let output = "";
let url = "";
let browser: Browser;
let scratch = "";
const dbName = `b_${randomBytes(6).toString("hex")}`;

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "remix-demo-dev-"));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["server.js"], {
    cwd: APP_DIR,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      TESSERA_BASE_URL: url,
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: dbName,
      DEMO_SEED: "1",
      DEMO_RATE_LIMIT: "0",
      DEMO_DATA_DIR: join(scratch, "data"),
      DEMO_VITE_CACHE_DIR: join(scratch, "vite"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
    server.stdout?.on("data", read);
    server.stderr?.on("data", read);
    server.once("exit", (code) => fail(new Error(`the dev server exited with ${code}:\n${output}`)));
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((done) => server.once("exit", done));
  }
  const client = new MongoClient(inject("mongoUri"));
  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => {});
  await client.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Counts the page's own loads after the first: a reload Vite forces is one. */
function countReloads(page: Page): () => number {
  let loads = 0;
  page.on("load", () => loads++);
  return () => Math.max(0, loads - 1);
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((address) => address.pathname === "/", { timeout: 30_000 });
}

describe("the development server on a first visit", () => {
  test("a first two-factor set-up stays on screen, and no page makes Vite re-bundle and reload", async () => {
    const context = await browser.newContext({ baseURL: url });
    const page = await context.newPage();
    await signIn(page, DEMO.grace, DEMO.password);
    await page.goto("/account/two-factor");
    const reloads = countReloads(page);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    const secret = await waitText(page.getByTestId("totp-secret"));
    // Vite re-bundled within a second or two of a new dependency; give it five.
    await page.waitForTimeout(5000);
    expect(await waitText(page.getByTestId("totp-secret"))).toBe(secret);
    expect(reloads()).toBe(0);

    for (const path of [
      "/account",
      "/account/email",
      "/account/password",
      "/account/sessions",
      "/account/linked",
      "/account/api-keys",
      "/account/delete",
      "/organizations",
      "/organizations/acme",
      "/organizations/acme/members",
      "/organizations/acme/invitations",
      "/organizations/acme/teams",
      "/dev/outbox",
    ]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    const admin = await (await browser.newContext({ baseURL: url })).newPage();
    await signIn(admin, DEMO.admin.email, DEMO.admin.password);
    for (const path of ["/admin", "/admin/users", "/admin/audit"]) {
      await admin.goto(path);
      await admin.waitForLoadState("networkidle");
    }
    await page.waitForTimeout(2000);
    expect(output).not.toMatch(/new dependencies optimized|optimized dependencies changed/);
  });
});
