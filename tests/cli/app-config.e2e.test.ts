import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { useBuiltCli } from "./built-cli.ts";
import { runCli } from "./cli-process.ts";

/**
 * How the built `tessera` finds the app's database: tessera.config.ts|mjs|js here or in a parent,
 * TESSERA_CONFIG, the config's dbName over the URI's default, never a throwaway database, and an
 * unreachable one named without its password.
 */
const cli = useBuiltCli("config", { alsoDrop: ["_app", "_other", "_scaffold"] });
const { root } = cli;
const appDb = `${cli.dbName}_app`;
const otherDb = `${cli.dbName}_other`;
const scaffoldDb = `${cli.dbName}_scaffold`;
/** No database and no config reach the CLI unless a test gives them; no `tessera db start` state. */
const bare: NodeJS.ProcessEnv = {
  MONGODB_URI: undefined,
  TESSERA_DB_NAME: undefined,
  TESSERA_SECRET: undefined,
  TESSERA_CONFIG: undefined,
  TESSERA_STATE_DIR: join(root, "no-state"),
};

/** An app directory with a TypeScript config naming the test server, `dbName` and a secret. */
async function appWithConfig(name: string, dbName: string, database = true): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "app", "routes"), { recursive: true });
  await writeFile(
    join(dir, "tessera.config.ts"),
    `const options: Record<string, unknown> = {
  ${database ? `database: { uri: process.env.MONGODB_URI ?? ${JSON.stringify(inject("mongoUri"))}, dbName: ${JSON.stringify(dbName)} },` : ""}
  secret: "config-secret-0123456789-0123456789-0123",
};
export default options;
`,
  );
  return dir;
}

const migrationsIn = (dbName: string) => cli.db(dbName).collection("_migrations").countDocuments();

describe("tessera finds its app", () => {
  it("from a subdirectory of the app, tessera.config.ts in a parent is read: migrate up migrates its dbName", async () => {
    const app = await appWithConfig("found", appDb);
    const result = await runCli(["migrate", "up", "--json"], { cwd: join(app, "app", "routes"), env: bare });
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
    const { applied } = JSON.parse(result.stdout) as { applied: string[] };
    expect(applied.length).toBeGreaterThan(0);
    expect(await migrationsIn(appDb)).toBe(applied.length);
  });

  it("with MONGODB_URI set (as init's .env sets it), the config's dbName still wins over the URI's default", async () => {
    const app = await appWithConfig("with-uri", otherDb);
    const result = await runCli(["--config", "tessera.config.ts", "migrate", "status", "--json"], {
      cwd: app,
      env: { ...bare, MONGODB_URI: inject("mongoUri") },
    });
    expect(result.code).toBe(0);
    const up = await runCli(["migrate", "up"], {
      cwd: app,
      env: { ...bare, MONGODB_URI: inject("mongoUri") },
    });
    expect(up.code).toBe(0);
    expect(await migrationsIn(otherDb)).toBeGreaterThan(0);
    // --db (or TESSERA_DB_NAME) is still the way to point one run elsewhere.
    const elsewhere = await runCli(["--db", `${cli.dbName}_unused`, "migrate", "status", "--json"], {
      cwd: app,
      env: { ...bare, MONGODB_URI: inject("mongoUri") },
    });
    expect(elsewhere.code).toBe(0);
    const status = JSON.parse(elsewhere.stdout) as { pending: number; migrations: unknown[] };
    expect(status.pending).toBe(status.migrations.length);
  });

  it("TESSERA_CONFIG names the config from anywhere; doctor names the database and the config, reads its secret, shows progress", async () => {
    const app = await appWithConfig("named", appDb);
    const elsewhere = join(root, "elsewhere");
    await mkdir(elsewhere, { recursive: true });
    const config = join(app, "tessera.config.ts");
    const up = await runCli(["migrate", "up"], { cwd: elsewhere, env: { ...bare, TESSERA_CONFIG: config } });
    expect(up.code).toBe(0);
    expect(await migrationsIn(appDb)).toBeGreaterThan(0);
    const result = await runCli(["doctor"], { cwd: elsewhere, env: { ...bare, TESSERA_CONFIG: config } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toBe(`database  ${inject("mongoUri")} (database ${appDb})`);
    expect(lines[1]).toBe(`config    ${config}`);
    expect(lines[2]).toMatch(/^ok\tsecret: .* — the config's: 40 characters$/);
    // A passing check reads as passing, not as the problem it looks for.
    expect(lines).toContain("ok\tpending-migrations: none pending");
    expect(lines).toContain(
      "ok\tactive-organizations-of-non-members: no sessions whose active organization is gone or not their user's",
    );
    expect(result.stderr.split("\n")).toEqual(
      expect.arrayContaining([
        "doctor: configuration (0/3)",
        "doctor: migrations (1/3)",
        "doctor: data invariants (2/3)",
        expect.stringMatching(/^doctor: \d+ checks passed$/),
      ]),
    );
  });

  it("a scaffolded app's config with no URI: the app's running embedded database (.data/db/ferretdb.port) is the one used; a port nobody answers is not", async () => {
    const app = join(root, "scaffolded");
    await mkdir(join(app, ".data", "db"), { recursive: true });
    await writeFile(
      join(app, "tessera.config.ts"),
      `export default { database: { uri: process.env.MONGODB_URI ?? "", dbName: ${JSON.stringify(scaffoldDb)} }, secret: "config-secret-0123456789-0123456789-0123" };\n`,
    );
    // The app's dev server writes the port its embedded database listens on; the test server stands in.
    const port = new URL(inject("mongoUri")).port;
    await writeFile(join(app, ".data", "db", "ferretdb.port"), `${port}\n`);
    const result = await runCli(["migrate", "up", "--json"], { cwd: app, env: bare });
    expect(result.code).toBe(0);
    expect(await migrationsIn(scaffoldDb)).toBe(
      (JSON.parse(result.stdout) as { applied: string[] }).applied.length,
    );
    await writeFile(join(app, ".data", "db", "ferretdb.port"), "1\n");
    const stopped = await runCli(["users", "list"], { cwd: app, env: bare });
    expect(stopped.code).toBe(2);
    // The config names its database through MONGODB_URI: the message says that variable is unset
    // (not that the config has no database), and that the app's own database is stopped.
    expect(stopped.stderr.split("\n").slice(0, 3)).toEqual([
      `error: no database configured (${join(app, "tessera.config.ts")} reads the database's URI from MONGODB_URI, which is not set).`,
      "The app's embedded database is not running (nothing answers on port 1, which .data/db/ferretdb.port names): start it with `npm run dev` in the app. Or one of:",
      "  MONGODB_URI=mongodb://host:27017 TESSERA_DB_NAME=app tessera …   (or --uri and --db)",
    ]);
    await rm(join(app, ".data"), { recursive: true });
    const never = await runCli(["users", "list"], { cwd: app, env: bare });
    expect(never.code).toBe(2);
    expect(never.stderr.split("\n")[0]).toBe(
      `error: no database configured (${join(app, "tessera.config.ts")} reads the database's URI from MONGODB_URI, which is not set). One of:`,
    );
  });

  it("no database configured: an admin command refuses (exit 2) and says how, starting no database", async () => {
    const empty = join(root, "empty");
    await mkdir(empty, { recursive: true });
    const result = await runCli(["users", "list"], { cwd: empty, env: bare });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      [
        `error: no database configured (no MONGODB_URI, and no tessera.config.ts|mjs|js in ${empty} or its parents). One of:`,
        "  MONGODB_URI=mongodb://host:27017 TESSERA_DB_NAME=app tessera …   (or --uri and --db)",
        "  a tessera.config.ts with database: { uri, dbName }                (or --config / TESSERA_CONFIG)",
        "  tessera db start                                                  (in another terminal, here)",
        "  npm run dev in the app                                            (its embedded database in .data/db)",
        "",
      ].join("\n"),
    );

    const json = await runCli(["migrate", "up", "--json"], { cwd: empty, env: bare });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: "NO_DATABASE" } });

    const noDatabase = await appWithConfig("no-database", appDb, false);
    const fromConfig = await runCli(["doctor"], { cwd: noDatabase, env: bare });
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain(
      `error: no database configured (${join(noDatabase, "tessera.config.ts")} has no database, and no MONGODB_URI is set)`,
    );
  });

  it("an unreachable database: exit 1, the URI without its password, and the driver's reason", async () => {
    const result = await runCli(["users", "list"], {
      cwd: root,
      env: { ...bare, MONGODB_URI: "mongodb://ann:s3cret-pw@127.0.0.1:9/shop?serverSelectionTimeoutMS=300" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: cannot reach the database mongodb:\/\/127\.0\.0\.1:9\/shop\?serverSelectionTimeoutMS=300 \(database shop\): connect ECONNREFUSED 127\.0\.0\.1:9\n$/,
    );
    expect(result.stderr).not.toContain("s3cret");
  });
});
