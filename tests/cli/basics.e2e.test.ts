import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useBuiltCli } from "./built-cli.ts";
import { runCli, spawnCli } from "./cli-process.ts";

/** The built `tessera` binary in a child process: exit codes, --json shapes, the database after. */
const cli = useBuiltCli("basics");
const { env } = cli;

describe("tessera", () => {
  it("--help lists the commands and the exit codes, exit 0", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("migrate");
    expect(result.stdout).toContain("3 not found, 4 refused by a rule");
  });

  it("an unknown command or option is a usage error: exit 2", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    const result = await runCli(["secret", "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--bogus'");
  });

  it("secret prints a new 43-character secret, another each time", async () => {
    const [a, b] = await Promise.all([runCli(["secret", "--json"]), runCli(["secret"])]);
    expect(a.code).toBe(0);
    const { secret } = JSON.parse(a.stdout) as { secret: string };
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(b.stdout.trim()).toMatch(/^[\w-]{43}$/);
    expect(b.stdout.trim()).not.toBe(secret);
  });

  it("migrate status → up → status: pending, applied one by one (plain lines without a terminal), none pending", async () => {
    const before = await runCli(["migrate", "status", "--json"], { env });
    expect(before.code).toBe(0);
    const status = JSON.parse(before.stdout) as {
      migrations: { id: string; appliedAt: string | null }[];
      pending: number;
    };
    expect(status.pending).toBe(status.migrations.length);
    expect(status.migrations[0]).toEqual({ id: "0001-core-indexes", appliedAt: null });

    const up = await runCli(["migrate", "up"], { env });
    expect(up.code).toBe(0);
    expect(up.stderr).toContain("migrate: 0001-core-indexes (0/");
    expect(up.stdout.trim().split("\n")).toEqual(status.migrations.map((state) => `applied ${state.id}`));
    const recorded = await cli.db().collection("_migrations").countDocuments();
    expect(recorded).toBe(status.migrations.length);

    const again = await runCli(["migrate", "up", "--json"], { env });
    expect(JSON.parse(again.stdout)).toEqual({ applied: [], pending: 0 });
    const after = JSON.parse(
      (await runCli(["migrate", "status", "--json"], { env })).stdout,
    ) as typeof status;
    expect(after.pending).toBe(0);
    expect(after.migrations.every((state) => typeof state.appliedAt === "string")).toBe(true);
  });

  it("cleanup removes expired rows and reports the counts", async () => {
    const db = cli.db();
    const past = new Date(Date.now() - 60_000);
    await db.collection("verifications").insertMany([
      {
        identifier: `old-${randomBytes(4).toString("hex")}`,
        value: "x",
        expiresAt: past,
        createdAt: past,
        updatedAt: past,
      },
      {
        identifier: `new-${randomBytes(4).toString("hex")}`,
        value: "x",
        expiresAt: new Date(Date.now() + 60_000),
        createdAt: past,
        updatedAt: past,
      },
    ]);
    const result = await runCli(["cleanup", "--json"], { env });
    expect(result.code).toBe(0);
    const { removed } = JSON.parse(result.stdout) as { removed: Record<string, number> };
    expect(removed.verifications).toBe(1);
    expect(await db.collection("verifications").countDocuments()).toBe(1);
  });

  it("an unreachable database is a failure with a one-line message and no stack: exit 1", async () => {
    const result = await runCli(["migrate", "status"], {
      env: { ...env, MONGODB_URI: "mongodb://127.0.0.1:9/none?serverSelectionTimeoutMS=300" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).not.toContain("    at ");
  });

  it("db start prints the embedded database's URI, records it for the commands beside it, and stops on SIGINT", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "tessera-db-start-"));
    try {
      const child = spawnCli(["db", "start", "--json"], { MONGODB_URI: undefined }, cwd);
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", () => {
          if (stdout.includes("}")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      const { uri } = JSON.parse(stdout) as { uri: string };
      expect(uri).toMatch(/^mongodb:\/\//);
      const state = JSON.parse(await readFile(join(cwd, ".tessera", "db.json"), "utf8")) as { uri: string };
      expect(state.uri).toBe(uri);
      const status = await runCli(["migrate", "status", "--json"], { cwd, env: { MONGODB_URI: undefined } });
      expect(status.code).toBe(0);
      child.kill("SIGINT");
      const code = await new Promise((resolve) => child.on("exit", resolve));
      expect(code).toBe(0);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }, 90_000);
});
