import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type BundledServer, spawnBundledServer } from "../../../../bench/serve-bundle.ts";
import { REPO_ROOT, withDbName } from "../../../../tests/e2e/serve-process.ts";
import { buildServer, SERVER_BUNDLE, SERVER_ENV, SERVER_NODE_FLAGS } from "./build.ts";

/**
 * `pnpm serve` runs the bundle from build.ts with plain node (and so does the bench): the bundle
 * must start and serve like `tsx main.ts` does, and the script must run it as build.ts describes.
 */
const dbName = `bundle_${randomBytes(6).toString("hex")}`;
let server: BundledServer | null = null;

beforeAll(async () => {
  await buildServer();
}, 30_000);
afterAll(async () => {
  server?.kill();
  const mongo = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  await mongo
    .db(dbName)
    .dropDatabase()
    .catch(() => {});
  await mongo.close();
});

describe("the bundled server", () => {
  it("is what the serve script runs, with the flags and environment of build.ts", async () => {
    const root = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const env = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);
    const command = [...env, "node", ...SERVER_NODE_FLAGS, SERVER_BUNDLE.slice(REPO_ROOT.length + 1)];
    expect(root.scripts.serve).toBe(`tsx packages/auth-core/src/server/build.ts && ${command.join(" ")}`);
  });

  it("serves sign-up and get-session over HTTP and exits 0 on SIGTERM", async () => {
    server = spawnBundledServer({
      PORT: "0",
      HOST: "127.0.0.1",
      MONGODB_URI: withDbName(inject("mongoUri"), dbName),
      TESSERA_SECRET: "bundle-secret-0123456789abcdef0123456789",
    });
    const api = (await server.listening).replace("localhost", "127.0.0.1");
    const signUp = await fetch(`${api}/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery", name: "Ada" }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const session = await fetch(`${api}/get-session`, { headers: { cookie } });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe("ada@example.com");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 30_000);
});
