import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { cleanEnv, freePort } from "#test/app-process.ts";
import { packPackage } from "#test/pack.ts";
import { buildCli, runCli } from "./cli-process.ts";

/**
 * An app made by `tessera create` in production, what tests/e2e/new-app.test.ts (the development
 * server, sign-up, sign-in and refusals in Chromium) does not cover: installed against this
 * workspace's core (a `pnpm pack` tarball, never the registry's copy of our package), type-checked
 * with the app's own tsc, built with `remix vite:build`, migrated with `tessera --config
 * tessera.config.ts migrate up` on a database of its own, started with `npm start` (server.mjs on
 * the build), and a sign-up posted to its page as a browser without JavaScript would.
 */
const sh = promisify(execFile);
let root: string;
let app: string;
let server: ChildProcess | undefined;
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
  // The .bin entry is a shell shim whose node child outlives a signal to the shim: end the group.
  // The server may wait on open connections after SIGTERM: SIGKILL the group if it is still there.
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
  it("type-checks, builds, migrates, starts in production, and signs a user up through its page", async () => {
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
          "organization,admin,two-factor,passkey,api-key",
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

    // Production refuses a setting it cannot run with before it listens: one line, exit code 1.
    const refused = async (settings: NodeJS.ProcessEnv) => {
      const env = {
        ...cleanEnv(),
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        ...settings,
      };
      const ended = await sh("node", ["server.mjs"], { cwd: app, env, timeout: 60_000 }).then(
        (done) => ({ code: 0, ...done }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(ended.code, ended.stdout).toBe(1);
      expect(ended.stdout).not.toContain("ready");
      return ended.stderr.trim();
    };
    await timed("refusals", async () => {
      expect(await refused({ SMTP_URL: "smtp://127.0.0.1:2525" })).toBe(
        "MONGODB_URI must be set in production: the MongoDB server's URI (development starts a database itself).",
      );
      expect(await refused({ MONGODB_URI: inject("mongoUri"), TESSERA_DB_NAME: dbName })).toBe(
        "SMTP_URL must be set in production (smtp://user:pass@host:587 or smtps://…:465): without it no " +
          "verification, password reset or invitation mail reaches anyone. To run without mail on purpose, " +
          "set TESSERA_MAIL=disabled.",
      );
    });

    await timed("start", async () => {
      // npm start: NODE_ENV=production node server.mjs (PORT and HOST as remix-serve took them). No
      // TESSERA_BASE_URL: the base URL follows the port (an Origin of http://localhost:<port>).
      server = spawn("npm", ["start"], {
        cwd: app,
        env: {
          ...cleanEnv(),
          MONGODB_URI: inject("mongoUri"),
          TESSERA_DB_NAME: dbName,
          TESSERA_MAIL: "disabled",
          PORT: String(port),
          HOST: "127.0.0.1",
        },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      server.stdout!.on("data", (chunk: Buffer) => {
        serverOutput += chunk.toString();
      });
      server.stderr!.on("data", (chunk: Buffer) => {
        serverOutput += chunk.toString();
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`npm start did not start:\n${serverOutput}`)),
          60_000,
        );
        const listen = () => {
          if (serverOutput.includes(`ready: ${url}/`)) {
            clearTimeout(timer);
            resolve();
          }
        };
        server!.stdout!.on("data", listen);
        server!.stderr!.on("data", listen);
        server!.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${serverOutput}`)));
      });
    });

    // The pages as the browser asks for them at the base URL the server followed (its port).
    const site = `http://localhost:${port}`;
    let cookie = "";
    await timed("sign-up", async () => {
      const form = await fetch(`${site}/sign-up`);
      expect(form.status).toBe(200);
      expect(await form.text()).toContain("<h1>Create an account</h1>");
      // The form as a browser without JavaScript posts it: the action signs up and redirects.
      const posted = await fetch(`${site}/sign-up`, {
        method: "POST",
        headers: { origin: site, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          name: "Grace Hopper",
          email: "grace@example.com",
          password: "correct horse battery",
        }),
        redirect: "manual",
      });
      expect(posted.status, serverOutput).toBe(302);
      expect(posted.headers.get("location")).toBe("/account");
      cookie = posted.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      const account = await fetch(`${site}/account`, { headers: { cookie } });
      expect(account.status).toBe(200);
      expect(await account.text()).toContain("Signed in as Grace Hopper (grace@example.com)");
    });
    // TESSERA_MAIL=disabled: said at start; the verification mail is dropped, its link never logged.
    expect(serverOutput).not.toContain("token=");
    expect(serverOutput).toContain(
      "WARNING: mail is disabled (TESSERA_MAIL=disabled). These mails will be lost:",
    );
    expect(serverOutput).toContain("mail not sent (TESSERA_MAIL=disabled): verify-email");

    const client = new MongoClient(inject("mongoUri"));
    try {
      const users = await client.db(dbName).collection("users").find({}).toArray();
      expect(users.map((user) => [user.email, user.name])).toEqual([["grace@example.com", "Grace Hopper"]]);
      // The production server passes the socket's address: the session records it.
      const sessions = await client
        .db(dbName)
        .collection("sessions")
        .find({ userId: users[0]!._id })
        .toArray();
      expect(sessions.map((session) => session.ipAddress)).toEqual(["127.0.0.1"]);
    } finally {
      await client.close();
    }
    // A signed-in form (the cookie makes the core check its Origin against the base URL): sign-out.
    const signedOut = await fetch(`${site}/account`, {
      method: "POST",
      headers: { cookie, origin: site, "content-type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(signedOut.status, serverOutput).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/sign-in");

    timings.total = Math.round(performance.now() - started);
  });
});
