import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, expect, inject, vi } from "vitest";
import { buildCli, runCli } from "./cli-process.ts";

export interface BuiltCli {
  /** The file's own database of the test server, `cli_<name>_<random>`; dropped after the file. */
  dbName: string;
  /** The environment naming the test server, that database and a secret (and the operator, if given). */
  env: NodeJS.ProcessEnv;
  /** The file's temporary directory, removed after the file. */
  root: string;
  /** A database of the test server (the file's own by default): to read what a command wrote. */
  db(name?: string): Db;
}

/**
 * The set-up of a test file that runs the built `tessera` binary (cli-process.ts): the binary built
 * before its tests (once per change of the CLI's sources), a database of its own with the
 * environment naming it, a temporary directory, and a test timeout for a node process loading the
 * core through tsx (seconds a run on a busy machine). With `migrate`, `tessera migrate up` has run
 * on the database before the tests. `alsoDrop`: suffixes of other databases the file's commands
 * create (`<dbName><suffix>`), dropped with its own.
 */
export function useBuiltCli(
  name: string,
  options: { operator?: string; secret?: string; migrate?: boolean; alsoDrop?: readonly string[] } = {},
): BuiltCli {
  const dbName = `cli_${name}_${randomBytes(4).toString("hex")}`;
  const root = mkdtempSync(join(tmpdir(), `tessera-${name}-`));
  const client = new MongoClient(inject("mongoUri"));
  const env: NodeJS.ProcessEnv = {
    MONGODB_URI: inject("mongoUri"),
    TESSERA_DB_NAME: dbName,
    TESSERA_SECRET: options.secret ?? "cli-test-secret-0123456789",
    ...(options.operator ? { TESSERA_OPERATOR: options.operator } : {}),
  };
  vi.setConfig({ testTimeout: 180_000 });
  beforeAll(async () => {
    await buildCli();
    if (options.migrate) expect((await runCli(["migrate", "up"], { env })).code).toBe(0);
  }, 300_000);
  afterAll(async () => {
    for (const suffix of ["", ...(options.alsoDrop ?? [])])
      await client.db(`${dbName}${suffix}`).dropDatabase();
    await client.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { dbName, env, root, db: (other = dbName) => client.db(other) };
}
