import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { useBuiltCli } from "./built-cli.ts";
import { runCli } from "./cli-process.ts";

/**
 * The app's settings live in the .env beside its tessera.config.ts (init writes both). A `tessera`
 * command run anywhere in the app — a subfolder too, where the working directory has no .env —
 * reads that .env through the config, so it works on the app's database with the app's secret.
 */
const cli = useBuiltCli("app_env");
const { root, dbName } = cli;

describe("the .env beside the config", () => {
  it("is read when a command runs in a subfolder of the app: its database, its name and its secret", async () => {
    const app = join(root, "shop");
    await mkdir(app);
    await writeFile(
      join(app, "package.json"),
      `${JSON.stringify({ name: "shop", type: "module", dependencies: { "@remix-run/react": "^2.17.5" } })}\n`,
    );
    const init = await runCli(["init", "--yes", "--db-uri", inject("mongoUri")], { cwd: app });
    expect(init.code, init.stderr).toBe(0);
    await appendFile(join(app, ".env"), `TESSERA_DB_NAME=${dbName}\n`);
    const secret = /^TESSERA_SECRET=(.+)$/m.exec(await readFile(join(app, ".env"), "utf8"))?.[1];
    expect(secret).toBeDefined();

    // Nothing from the environment: only the app's files say where the database is.
    const bare = {
      MONGODB_URI: undefined,
      TESSERA_DB_NAME: undefined,
      TESSERA_SECRET: undefined,
      TESSERA_CONFIG: undefined,
      TESSERA_STATE_DIR: join(root, "no-state"),
    };
    const subfolder = join(app, "app", "routes");
    const up = await runCli(["migrate", "up", "--json"], { cwd: subfolder, env: bare });
    expect(up.code, up.stderr).toBe(0);
    const { applied } = JSON.parse(up.stdout) as { applied: string[] };
    expect(applied.length).toBeGreaterThan(0);
    expect(await cli.db().collection("_migrations").countDocuments()).toBe(applied.length);

    const doctor = await runCli(["doctor"], { cwd: subfolder, env: bare });
    const lines = doctor.stdout.trim().split("\n");
    expect(lines[0]).toBe(`database  ${inject("mongoUri")} (database ${dbName})`);
    expect(lines[1]).toBe(`config    ${join(app, "tessera.config.ts")}`);
    // The config put the .env's TESSERA_SECRET into the environment.
    expect(doctor.stdout).toMatch(new RegExp(`secret: .* — TESSERA_SECRET: ${secret!.length} characters`));
  });
});
