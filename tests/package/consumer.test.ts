/**
 * The packages as an app installs them: `pnpm pack` of each publishable package, then plain `npm
 * install` of the tarballs in a fresh directory outside the workspace (its own package.json, no
 * workspace links), where (a) a plain node script uses the core on the test database and (b) a
 * consumer `.ts` file type-checks under a standard strict NodeNext tsconfig. Guards the issue "An
 * installable core with a clear inside" §1.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { packPackage } from "#test/pack.ts";

const run = promisify(execFile);
const PACKAGES = ["auth-core", "dev-db", "cli"] as const;

let dir: string;
const tarballs: Record<string, string> = {};

async function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return run(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
}

async function listTarball(file: string): Promise<string[]> {
  const { stdout } = await sh("tar", ["tzf", file], dir);
  return stdout.trim().split("\n");
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-consumer-"));
  const packs = join(dir, "packs");
  await mkdir(packs);
  for (const name of PACKAGES) tarballs[name] = await packPackage(name, packs);
  const app = join(dir, "app");
  const coreApp = join(dir, "core-app");
  for (const [folder, name] of [
    [app, "consumer-app"],
    [coreApp, "core-app"],
  ] as const) {
    await mkdir(folder);
    await writeFile(join(folder, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  }
  // The core, the CLI and the embedded database the CLI brings along (an optional dependency of the
  // CLI; its tarball given here so that npm never asks the registry for our own package). The two
  // installs run side by side: they mostly wait on the network and the disk.
  const installs = sh(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      tarballs["auth-core"]!,
      tarballs.cli!,
      tarballs["dev-db"]!,
      "typescript@5.9",
      "@types/node@20",
      // The consumer uses the React entry, whose components are typed with React's own types: a
      // TypeScript React app has them (react is an optional peer of the core).
      "react@18",
      "@types/react@18",
    ],
    app,
  );
  // The core alone: an app on a real MongoDB must not pull the embedded database.
  const coreInstall = sh(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", tarballs["auth-core"]!],
    coreApp,
  );
  await Promise.all([installs, coreInstall]);
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the packed tarballs", () => {
  it("carry built JavaScript, declarations, source maps and the license, and no tests or TypeScript sources", async () => {
    for (const name of PACKAGES) {
      const files = await listTarball(tarballs[name]!);
      expect(files).toContain("package/LICENSE");
      expect(files).toContain("package/dist/index.js");
      expect(files).toContain("package/dist/index.d.ts");
      expect(files).toContain("package/dist/index.js.map");
      expect(files.filter((f) => /\.test\.|test-helpers|\/src\//.test(f))).toEqual([]);
      // The CLI carries templates/ (files `tessera init` writes into an app), TypeScript on purpose.
      const code = files.filter((f) => !f.startsWith("package/dist/templates/"));
      expect(code.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    }
  });

  it("install with plain npm and leave the embedded database out of an app on a real MongoDB", () => {
    const modules = join(dir, "core-app", "node_modules");
    expect(existsSync(join(modules, "@tessera", "auth-core", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(modules, "@tessera", "dev-db"))).toBe(false);
    expect(existsSync(join(modules, "mongodb-memory-server-core"))).toBe(false);
  });

  it("the CLI brings the embedded database and tsx as its own dependencies", async () => {
    const cli = JSON.parse(
      await readFile(join(dir, "app", "node_modules", "@tessera", "cli", "package.json"), "utf8"),
    ) as { dependencies: Record<string, string>; optionalDependencies: Record<string, string> };
    expect(cli.optionalDependencies).toEqual({ "@tessera/dev-db": "^0.1.0" });
    expect(cli.dependencies.tsx).toMatch(/^\^4\./);
  });
});

describe("the installed tessera CLI", () => {
  it("answers --help, and migrates the test database through the core's dist/ (--json, exit 0)", async () => {
    const app = join(dir, "app");
    const help = await sh("npx", ["--no-install", "tessera", "--help"], app);
    expect(help.stdout).toContain("Usage: tessera");
    const env = {
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: `consumer_cli_${randomBytes(4).toString("hex")}`,
    };
    const { stdout } = await sh("npx", ["--no-install", "tessera", "migrate", "up", "--json"], app, env);
    expect((JSON.parse(stdout) as { applied: string[] }).applied[0]).toBe("0001-core-indexes");
    const init = await sh("npx", ["--no-install", "tessera", "init", "--dry-run", "--json"], app).catch(
      (error: { code: number; stderr: string }) => error,
    );
    // The installed CLI finds its templates; this app is no Remix app, which init says (exit 2).
    expect(init).toMatchObject({ code: 2 });
    expect((init as { stderr: string }).stderr).toContain("is not a Remix app");
  }, 60_000);

  it("reads a TypeScript --config with nothing more installed, and finds the embedded database from any directory", async () => {
    const app = join(dir, "app");
    const bin = join(app, "node_modules", "@tessera", "cli", "bin", "tessera.mjs");
    await writeFile(
      join(app, "tessera.config.ts"),
      `const options: { database: { uri: string; dbName: string } } = {
  database: { uri: process.env.APP_DB_URI ?? "", dbName: "consumer_config_${randomBytes(4).toString("hex")}" },
};
export default options;
`,
    );
    const { stdout } = await sh(
      "node",
      [bin, "--config", "tessera.config.ts", "migrate", "status", "--json"],
      app,
      {
        APP_DB_URI: inject("mongoUri"),
      },
    );
    const status = JSON.parse(stdout) as { migrations: { id: string; appliedAt: null }[]; pending: number };
    expect(status.migrations[0]).toEqual({ id: "0001-core-indexes", appliedAt: null });
    expect(status.pending).toBe(status.migrations.length);

    // From an empty directory, no MONGODB_URI: an admin command refuses (never a throwaway database),
    // and `db start` finds @tessera/dev-db beside the CLI, not from here; commands beside it use it.
    const empty = await mkdtemp(join(tmpdir(), "tessera-anywhere-"));
    const env = { ...process.env };
    delete env.MONGODB_URI;
    const refused = (await run("node", [bin, "migrate", "status", "--json"], { cwd: empty, env }).catch(
      (error: unknown) => error,
    )) as { code: number; stdout: string };
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: "NO_DATABASE" } });
    const database = spawn("node", [bin, "db", "start", "--json"], { cwd: empty, env });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        database.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("}")) resolve();
        });
        database.on("exit", (code) => reject(new Error(`db start exited ${code}`)));
      });
      const anywhere = await run("node", [bin, "migrate", "status", "--json"], { cwd: empty, env });
      expect((JSON.parse(anywhere.stdout) as { migrations: { id: string }[] }).migrations[0]?.id).toBe(
        "0001-core-indexes",
      );
    } finally {
      database.kill("SIGINT");
      await once(database, "exit");
      await rm(empty, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("an app using the installed core", () => {
  it("creates the auth, migrates, serves /ok over node:http and signs a user up through the handler", async () => {
    const script = `import { createServer } from "node:http";
import { createAuth } from "@tessera/auth-core";
const auth = createAuth({ database: { uri: process.env.MONGODB_URI, dbName: process.env.DB_NAME },
  secret: "consumer-secret-0123456789abcdef", baseURL: "http://127.0.0.1:3000" });
await auth.migrate();
const server = createServer(async (req, res) => {
  const response = await auth.handler(new Request(new URL(req.url, "http://127.0.0.1:3000")), { remoteAddress: "127.0.0.1" });
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
}).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const ok = await fetch(\`http://127.0.0.1:\${server.address().port}/api/auth/ok\`).then((r) => r.json());
const signUp = await auth.handler(new Request("http://127.0.0.1:3000/api/auth/sign-up/email", { method: "POST",
  headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000" },
  body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery staple", name: "Ada" }) }), { remoteAddress: "127.0.0.1" });
console.log(JSON.stringify({ ok, status: signUp.status, user: (await signUp.json()).user }));
server.close(); await auth.close();
`;
    expect(script.trim().split("\n").length).toBeLessThanOrEqual(20);
    await writeFile(join(dir, "app", "main.mjs"), script);
    const dbName = `consumer_${randomBytes(4).toString("hex")}`;
    const { stdout } = await sh("node", ["main.mjs"], join(dir, "app"), {
      MONGODB_URI: inject("mongoUri"),
      DB_NAME: dbName,
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(result.ok).toEqual({ ok: true });
    expect(result.status).toBe(200);
    expect(result.user).toMatchObject({ email: "ada@example.com", name: "Ada", emailVerified: false });
  }, 120_000);

  it("the standalone server without MONGODB_URI and without the embedded database says what to install", async () => {
    const script = `import { startServer } from "@tessera/auth-core/server";
await startServer({ env: { PORT: "0" } }).then(() => console.log("started"), (error) => console.log(error.message));`;
    await writeFile(join(dir, "core-app", "no-db.mjs"), script);
    const { stdout } = await sh("node", ["no-db.mjs"], join(dir, "core-app"));
    expect(stdout.trim()).toBe(
      "No MONGODB_URI is set and the embedded database is not installed: set MONGODB_URI, or `npm install @tessera/dev-db` for a local development database",
    );
  });

  it("type-checks a consumer under a standard strict NodeNext tsconfig", async () => {
    const app = join(dir, "app");
    await writeFile(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        include: ["consumer.ts"],
      }),
    );
    await writeFile(
      join(app, "consumer.ts"),
      `import { createAuth, isAuthError, type User } from "@tessera/auth-core";
import { createAuthClient } from "@tessera/auth-core/client";
import { createAuthClient as createReactAuthClient } from "@tessera/auth-core/react";
import { canActOnMember, DEFAULT_ROLES, type RoleTable } from "@tessera/auth-core/roles";
import { startServer } from "@tessera/auth-core/server";

const roles: RoleTable = DEFAULT_ROLES;
export const adminMayRemoveOwner: boolean = canActOnMember("admin", "owner", roles, "owner");

const auth = createAuth({
  database: { uri: "mongodb://127.0.0.1:27017", dbName: "app" },
  secret: "consumer-secret-0123456789abcdef",
});

export async function signIn(email: string, password: string): Promise<string | null> {
  try {
    const { data, headers } = await auth.api.signInEmail({ body: { email, password }, headers: new Headers() });
    if ("twoFactorRedirect" in data) return null;
    const user: User = data.user;
    const cookie: string | null = headers.get("set-cookie");
    return \`\${user.id} \${user.email} \${data.token} \${cookie ?? ""}\`;
  } catch (error) {
    if (isAuthError(error)) return error.code;
    throw error;
  }
}
export const serve = startServer;

const client = createAuthClient({ baseURL: "https://auth.example.com" });
export async function whoIsSignedIn(): Promise<string | null> {
  const { data, error } = await client.getSession();
  if (error) return \`\${error.status} \${error.code}: \${error.message}\`;
  const created: Date | undefined = data?.session.createdAt;
  return data ? \`\${data.user.email} since \${created?.toISOString()}\` : null;
}
const reactClient = createReactAuthClient();
export function useSignedInName(): string | null {
  const { data, isPending } = reactClient.useSession(null);
  return isPending ? null : (data?.user.name ?? null);
}
`,
    );
    const result = await sh("npx", ["tsc", "-p", "."], app).catch((error: { stdout: string }) => error);
    expect("stdout" in result ? result.stdout : "").toBe("");
  }, 120_000);
});
