/**
 * `pnpm bench:cli-scale`: the CLI on 10,000 users (BENCH_USERS): `tessera users list` (one page and
 * --all) through the built binary, and `tessera import --from better-auth` of as many users with
 * credential accounts. Seeds with bulk inserts; uses MONGODB_URI or starts the embedded database.
 * A measurement, not a test.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
// bench/ is not a workspace package: the driver comes through a file under tests/ that resolves it.
import { MongoClient, ObjectId } from "../tests/cli/mongodb.ts";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "packages", "cli");
const TSX = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
const USERS = Number(process.env.BENCH_USERS ?? 10_000);

if (!existsSync(join(CLI, "dist", "main.js")))
  execFileSync("pnpm", ["run", "build"], { cwd: CLI, stdio: "inherit" });
const database = await startDevDatabase({ log: () => {} });
const client = new MongoClient(database.uri);
const suffix = randomBytes(3).toString("hex");
const target = `bench_cli_${suffix}`;
const source = `bench_ba_${suffix}`;

function tessera(args: string[]): { ms: number; stdout: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--import", TSX, join(CLI, "bin", "tessera.mjs"), ...args], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      MONGODB_URI: database.uri,
      TESSERA_DB_NAME: target,
      TESSERA_SECRET: "bench-secret-0123456789abcdef012345",
    },
  });
  if (result.status !== 0)
    throw new Error(`tessera ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, stdout: result.stdout };
}

try {
  tessera(["migrate", "up"]);
  const now = new Date();
  const users = Array.from({ length: USERS }, (_, index) => ({
    _id: new ObjectId(),
    email: `user${index}@example.com`,
    emailVerified: true,
    name: `User ${index}`,
    image: null,
    createdAt: new Date(now.getTime() + index),
    updatedAt: now,
  }));
  for (let start = 0; start < users.length; start += 1000) {
    await client
      .db(target)
      .collection("users")
      .insertMany(users.slice(start, start + 1000));
  }
  const noop = tessera(["--version"]);
  const page = tessera(["users", "list", "--json"]);
  const all = tessera(["users", "list", "--all", "--json"]);
  const listed = (JSON.parse(all.stdout) as { users: unknown[] }).users.length;
  console.log(`node + tsx startup (tessera --version): ${noop.ms.toFixed(0)} ms`);
  console.log(`tessera users list (first page of 50 of ${USERS}): ${page.ms.toFixed(0)} ms`);
  console.log(`tessera users list --all (${listed} users): ${all.ms.toFixed(0)} ms`);

  // Better Auth source: one real Better Auth-format hash shared by every user (scrypt once, not 10,000 times).
  const salt = randomBytes(16).toString("hex");
  const hash = `${salt}:${scryptSync("bench password 123", salt, 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 }).toString("hex")}`;
  const baUsers = users.map((user) => ({ ...user, _id: new ObjectId(), email: `ba${user.email}` }));
  for (let start = 0; start < baUsers.length; start += 1000) {
    const batch = baUsers.slice(start, start + 1000);
    await client.db(source).collection("user").insertMany(batch);
    await client
      .db(source)
      .collection("account")
      .insertMany(
        batch.map((user) => ({
          _id: new ObjectId(),
          accountId: user._id.toHexString(),
          providerId: "credential",
          userId: user._id,
          password: hash,
          createdAt: now,
          updatedAt: now,
        })),
      );
  }
  const imported = tessera([
    "import",
    "--from",
    "better-auth",
    "--source-uri",
    database.uri,
    "--source-db",
    source,
    "--json",
  ]);
  const report = JSON.parse(imported.stdout) as {
    seconds: number;
    usersPerSecond: number;
    counts: Record<string, { copied: number }>;
  };
  console.log(
    `tessera import --from better-auth: ${report.counts.users?.copied} users + ${report.counts.accounts?.copied} accounts in ${report.seconds} s = ${report.usersPerSecond} users/s (whole command ${imported.ms.toFixed(0)} ms)`,
  );
  const again = tessera([
    "import",
    "--from",
    "better-auth",
    "--source-uri",
    database.uri,
    "--source-db",
    source,
    "--json",
  ]);
  console.log(
    `second import: ${(JSON.parse(again.stdout) as typeof report).counts.users?.copied} users copied, ${again.ms.toFixed(0)} ms`,
  );
} finally {
  await client.db(target).dropDatabase();
  await client.db(source).dropDatabase();
  await client.close();
  await database.stop();
}
