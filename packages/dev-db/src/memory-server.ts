import { createRequire } from "node:module";
import { MongoMemoryServer } from "mongodb-memory-server-core";
import { describeCommandFailure, runCommand } from "./processes.ts";

/**
 * Budget for finding or downloading a mongod. Offline, a download fails in well under a second
 * (with MONGOMS_MAX_RETRIES=1); online, a first download may need longer than this, so it can be
 * raised with TESSERA_MONGOMS_TIMEOUT_MS (the library resumes partial downloads across runs).
 */
const DEFAULT_BINARY_TIMEOUT_MS = 8_000;

export interface MemoryServer {
  uri: string;
  mongodVersion: string | undefined;
  binary: string;
  stop(): Promise<void>;
}

/**
 * Resolving the mongod binary runs in a child process so a stalled download can be killed outright:
 * the library offers no cancellation, and an in-process request would keep node alive after we gave up.
 * The child also sees exactly `env`, so MONGOMS_* settings from a caller-supplied env take effect.
 */
const RESOLVE_BINARY_SCRIPT = `
const { MongoBinary } = require(process.argv[1]);
MongoBinary.getPath().then(
  (path) => process.stdout.write(JSON.stringify({ path })),
  (error) => {
    process.stdout.write(JSON.stringify({ error: String((error && error.message) || error) }));
    process.exitCode = 1;
  },
);
`;

export async function startMemoryServer(env: NodeJS.ProcessEnv): Promise<MemoryServer> {
  const binary = await resolveMongodBinary(env);
  const mongodVersion = await readMongodVersion(binary, env);
  // Passing the detected version stops the library from warning that it differs from its default.
  const server = await MongoMemoryServer.create({ binary: { systemBinary: binary, version: mongodVersion } });
  return {
    uri: server.getUri(),
    mongodVersion,
    binary,
    stop: async () => {
      await server.stop();
    },
  };
}

async function resolveMongodBinary(env: NodeJS.ProcessEnv): Promise<string> {
  const libraryEntry = createRequire(import.meta.url).resolve("mongodb-memory-server-core");
  const timeoutMs = Number(env.TESSERA_MONGOMS_TIMEOUT_MS) || DEFAULT_BINARY_TIMEOUT_MS;
  // The library retries failed downloads with backoff (3 tries ≈ 7.5 s offline); one try tells us enough.
  const childEnv = { ...env, MONGOMS_MAX_RETRIES: env.MONGOMS_MAX_RETRIES ?? "1" };
  const args = ["-e", RESOLVE_BINARY_SCRIPT, libraryEntry];
  const result = await runCommand(process.execPath, args, { env: childEnv, timeoutMs });
  if (result.timedOut) {
    throw new Error(`finding/downloading a mongod took longer than ${timeoutMs / 1000} s (gave up)`);
  }
  const reply = parseResolveReply(result.stdout);
  if (reply.path) return reply.path;
  throw new Error(reply.error ?? describeCommandFailure("node", ["<resolve mongod>"], result));
}

function parseResolveReply(stdout: string): { path?: string; error?: string } {
  try {
    const parsed: unknown = JSON.parse(stdout);
    if (typeof parsed !== "object" || parsed === null) return {};
    const path = "path" in parsed && typeof parsed.path === "string" ? parsed.path : undefined;
    const error = "error" in parsed && typeof parsed.error === "string" ? oneLine(parsed.error) : undefined;
    return { path, error };
  } catch {
    return {};
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

async function readMongodVersion(binary: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const result = await runCommand(binary, ["--version"], { env, timeoutMs: 10_000 }).catch(() => undefined);
  return result?.stdout.match(/db version v?(\d+\.\d+\.\d+)/)?.[1];
}
