/**
 * A React Router 7 (framework mode) app using `@tessera/auth-core/remix`, outside the repository:
 * the fixture (tests/e2e/fixtures/react-router-app) copied to a temp directory, this checkout's
 * packages packed into its vendor/, `npm install` from them and the npm registry, its dev server
 * started, then a sign-up in Chromium (issue 29 §2: the helpers work with React Router 7, with a test
 * app in CI beside the Remix 2 one in new-app.test.ts). The fixture's custom server puts the socket's
 * address in the load context (server.mjs), where `remix.handler` and `remix.onBehalfOf` read it.
 * Prints the seconds it took.
 */
import type { ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { MongoClient } from "mongodb";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, freePort, killGroup, runInGroup, startInGroup } from "#test/app-process.ts";
import { packPackage } from "#test/pack.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FIXTURE = join(import.meta.dirname, "fixtures", "react-router-app");

let dir = "";
let browser: Browser | null = null;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-react-router-app-"));
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  for (const child of children) killGroup(child);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The fixture in `app` with this checkout's auth-core and dev-db packed into vendor/ and depended on. */
async function createApp(app: string): Promise<void> {
  await cp(FIXTURE, app, { recursive: true });
  const vendor = join(app, "vendor");
  await mkdir(vendor);
  const pkgPath = join(app, "package.json");
  const pkg = JSON.parse(await readFile(pkgPath, "utf8")) as Record<string, Record<string, string>>;
  for (const name of ["auth-core", "dev-db"]) {
    const tarball = await packPackage(name, vendor);
    pkg.dependencies = { ...pkg.dependencies, [`@tessera/${name}`]: `file:${relative(app, tarball)}` };
  }
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
}

describe("a React Router 7 app with @tessera/auth-core/remix", () => {
  it("a signed-out visit goes to sign-in, a visitor signs up and sees their account, the session has their address", {
    timeout: 300_000,
  }, async () => {
    const started = performance.now();
    const app = join(dir, "rr-app");
    await createApp(app);
    const packed = performance.now();
    await runInGroup(children, "npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dev = startInGroup(children, "npm", ["run", "dev"], {
      cwd: app,
      env: {
        ...cleanEnv(),
        PORT: String(port),
        TESSERA_BASE_URL: url,
        TESSERA_SECRET: "react-router-app-test-secret-0123456789abcdef",
      },
      readyText: `ready on ${url}`,
    });
    await dev.ready;
    const running = performance.now();

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    const page = await browser.newPage();

    // requireSession: a signed-out visitor is sent to sign-in with the way back.
    await page.goto(`${url}/account`, { timeout: 120_000 });
    expect(page.url(), dev.log()).toBe(`${url}/sign-in?redirectTo=%2Faccount`);
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();

    await page.goto(`${url}/sign-up`);
    await page.getByLabel("Name").fill("Grace Hopper");
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor({ timeout: 120_000 });
    expect(page.url()).toBe(`${url}/account`);
    expect(await page.locator("main").textContent()).toContain(
      "Signed in as Grace Hopper (grace@example.com)",
    );
    const at = (mark: number) => ((mark - started) / 1000).toFixed(1);
    console.info(
      `React Router 7 app: a signed-up user in ${at(performance.now())} s ` +
        `(packed at ${at(packed)} s, installed and dev server up at ${at(running)} s)`,
    );

    // The session row records the client's address, from the load context (server.mjs).
    const portFile = join(app, ".data", "db", "ferretdb.port");
    const client = new MongoClient(`mongodb://127.0.0.1:${(await readFile(portFile, "utf8")).trim()}`, {
      serverSelectionTimeoutMS: 5000,
    });
    try {
      const db = client.db("app");
      const user = await db.collection("users").findOne({ email: "grace@example.com" });
      expect(user?.name).toBe("Grace Hopper");
      const sessions = await db.collection("sessions").find({ userId: user?._id }).toArray();
      expect(sessions.map((session) => session.ipAddress)).toEqual(["127.0.0.1"]);
    } finally {
      await client.close();
    }
  });
});
