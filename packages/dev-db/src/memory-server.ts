import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
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

/**
 * What a failed attempt to find or download a mongod depended on: the library (its default mongod
 * version), the version and download URL asked for, and the platform. A failure is remembered for
 * these only, so another version, URL or machine tries again.
 */
function attemptKey(env: NodeJS.ProcessEnv): Record<string, string | null> {
  const library = createRequire(import.meta.url)("mongodb-memory-server-core/package.json") as {
    version: string;
  };
  return {
    library: library.version,
    version: env.MONGOMS_VERSION ?? null,
    downloadUrl: env.MONGOMS_DOWNLOAD_URL ?? null,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** Where a failed attempt is remembered: in the cache, so it lasts as long as the cached FerretDB. */
export function memoryServerFailureFile(cacheDir: string): string {
  return join(cacheDir, "mongodb-memory-server-failed.json");
}

/**
 * The reason of an earlier failed attempt with the same key (attemptKey), or null when there was
 * none or this one must be tried: a mongod named by MONGOMS_SYSTEM_BINARY is always tried.
 */
export async function readMemoryServerFailure(
  cacheDir: string,
  env: NodeJS.ProcessEnv,
): Promise<string | null> {
  if (env.MONGOMS_SYSTEM_BINARY) return null;
  try {
    const remembered = JSON.parse(await readFile(memoryServerFailureFile(cacheDir), "utf8")) as {
      key?: unknown;
      reason?: unknown;
    };
    const sameKey = JSON.stringify(remembered.key) === JSON.stringify(attemptKey(env));
    return sameKey && typeof remembered.reason === "string" ? remembered.reason : null;
  } catch {
    return null;
  }
}

/** Remembers a failed attempt (not one with MONGOMS_SYSTEM_BINARY: that is the user's own mongod). */
export async function rememberMemoryServerFailure(
  cacheDir: string,
  env: NodeJS.ProcessEnv,
  reason: string,
): Promise<boolean> {
  if (env.MONGOMS_SYSTEM_BINARY) return false;
  const file = memoryServerFailureFile(cacheDir);
  const record = { key: attemptKey(env), reason, at: new Date().toISOString() };
  try {
    await mkdir(cacheDir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, `${JSON.stringify(record, null, 2)}\n`);
    await rename(partial, file);
    return true;
  } catch {
    return false;
  }
}
