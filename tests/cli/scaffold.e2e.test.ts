import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { MongoClient } from "mongodb";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { packPackage } from "#test/pack.ts";
import { CHROMIUM } from "../browser/app-harness.ts";
import { buildCli, runCli } from "./cli-process.ts";

/**
 * `tessera create` as a developer runs it, then the app it made: installed against this workspace's
 * core (a `pnpm pack` tarball, never the registry's copy of our package), type-checked with the
 * app's own tsc, built with `remix vite:build`, migrated with `tessera --config tessera.config.ts
 * migrate up`, started with `remix-serve`, and a sign-up through its pages in Chromium.
 */
const sh = promisify(execFile);
let root: string;
let app: string;
let server: ChildProcess | undefined;
let browser: Browser | undefined;
const dbName = `scaffold_${randomBytes(4).toString("hex")}`;
const timings: Record<string, number> = {};
let serverOutput = "";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[step] = Math.round(performance.now() - started);
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return sh(command, args, { cwd: app, env: { ...process.env, ...env }, maxBuffer: 32 * 1024 * 1024 });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tessera-scaffold-"));
  app = join(root, "shop");
  await buildCli();
});

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch {
    // The group is gone already.
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  await browser?.close();
  // The .bin entry is a shell shim whose node child outlives a signal to the shim: end the group.
  // remix-serve may wait on open connections after SIGTERM: SIGKILL the group if it is still there.
  // The group, not the shim: the shim may have ended while its node child serves on.
  if (server?.pid !== undefined) {
    const group = -server.pid;
    signalGroup(group, "SIGTERM");
    for (let waited = 0; waited < 3_000 && groupAlive(group); waited += 100) await sleep(100);
    signalGroup(group, "SIGKILL");
  }
  const client = new MongoClient(inject("mongoUri"));
  await client.db(dbName).dropDatabase();
  await client.close();
  if (root) await rm(root, { recursive: true, force: true });
  console.info(`scaffold test steps (ms): ${JSON.stringify(timings)}`);
});

describe("an app made by tessera create", () => {
  it("type-checks, builds, migrates, starts, and signs a user up through its pages in Chromium", async () => {
    const started = performance.now();
    const created = await timed("create", () =>
      // --no-pack --no-install: this test installs the packed packages itself, with pnpm's store
      // (tests/e2e/new-app.test.ts runs create exactly as the README says).
      runCli(
        [
          "create",
          "shop",
          "--yes",
          "--no-pack",
          "--no-install",
          "--features",
          "organization,admin,two-factor,api-key",
          "--json",
        ],
        {
          cwd: root,
        },
      ),
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ dir: app, changed: true });

    // Our packages from this workspace: the core as a packed tarball (its dist/, as npm would
    // install it). The CLI, a development tool, runs from the workspace instead of being installed.
    const tarball = await timed("pack", () => packPackage("auth-core", root));
    const devDb = await timed("pack dev-db", () => packPackage("dev-db", root));
    const pkg = JSON.parse(await readFile(join(app, "package.json"), "utf8"));
    expect(pkg.dependencies["@tessera/auth-core"]).toBe("^0.1.0");
    expect(pkg.devDependencies["@tessera/cli"]).toBe("^0.1.0");
    expect(pkg.devDependencies["@tessera/dev-db"]).toBe("^0.1.0");
    pkg.dependencies["@tessera/auth-core"] = `file:${tarball}`;
    pkg.devDependencies["@tessera/dev-db"] = `file:${devDb}`;
    delete pkg.devDependencies["@tessera/cli"];
    await writeFile(join(app, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    // Third-party packages come from pnpm's store where it has them (the workspace fills it).
    await timed("install", () =>
      run("pnpm", ["install", "--prefer-offline", "--config.confirmModulesPurge=false", "--reporter=silent"]),
    );

    await timed("typecheck", () => run(join(app, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"]));
    await timed("build", () =>
      run(join(app, "node_modules", ".bin", "remix"), ["vite:build"], { NODE_ENV: "production" }),
    );

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: dbName,
      TESSERA_BASE_URL: url,
    };
    const migrated = await timed("migrate", () =>
      runCli(["--config", "tessera.config.ts", "migrate", "up", "--json"], { cwd: app, env }),
    );
    expect(migrated.code).toBe(0);
    expect((JSON.parse(migrated.stdout) as { applied: string[] }).applied[0]).toBe("0001-core-indexes");

    await timed("start", async () => {
      server = spawn(join(app, "node_modules", ".bin", "remix-serve"), ["./build/server/index.js"], {
        cwd: app,
        env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let output = "";
      server.stdout!.on("data", (chunk: Buffer) => {
        serverOutput += chunk.toString();
      });
      server.stderr!.on("data", (chunk: Buffer) => {
        serverOutput += chunk.toString();
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`remix-serve did not start:\n${output}`)), 60_000);
        const listen = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes(`:${port}`)) {
            clearTimeout(timer);
            resolve();
          }
        };
        server!.stdout!.on("data", listen);
        server!.stderr!.on("data", listen);
        server!.once("exit", (code) => reject(new Error(`remix-serve exited (${code}):\n${output}`)));
      });
    });

    await timed("browser", async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await page.getByRole("link", { name: "create an account" }).click();
      await page.waitForURL(`${url}/sign-up`);
      await page.getByLabel("Name").fill("Grace Hopper");
      await page.getByLabel("Email").fill("grace@example.com");
      await page.getByLabel("Password").fill("correct horse battery");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(`${url}/account`, { timeout: 15_000 }).catch(async (error: Error) => {
        const alert = await page
          .getByRole("alert")
          .textContent({ timeout: 1000 })
          .catch(() => null);
        throw new Error(`no /account after the sign-up (page says: ${alert}; server: ${serverOutput})`, {
          cause: error,
        });
      });
      await expect
        .poll(() => page.locator("main").textContent())
        .toContain("Signed in as Grace Hopper (grace@example.com)");

      // The same address again: the core's catalogue message on the page, no second user.
      const again = await browser.newPage();
      await again.goto(`${url}/sign-up`);
      await again.getByLabel("Name").fill("Someone");
      await again.getByLabel("Email").fill("grace@example.com");
      await again.getByLabel("Password").fill("another long password");
      await again.getByRole("button", { name: "Create account" }).click();
      await expect.poll(() => again.getByRole("alert").textContent()).toBe("User already exists");
    });

    const client = new MongoClient(inject("mongoUri"));
    try {
      const users = await client.db(dbName).collection("users").find({}).toArray();
      expect(users.map((user) => [user.email, user.name])).toEqual([["grace@example.com", "Grace Hopper"]]);
      expect(await client.db(dbName).collection("sessions").countDocuments({ userId: users[0]!._id })).toBe(
        1,
      );
    } finally {
      await client.close();
    }
    timings.total = Math.round(performance.now() - started);
  });
});
