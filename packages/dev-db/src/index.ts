import {
  ensureFerretDbBinary,
  FERRETDB_VERSION,
  ferretDbBinaryPath,
  resolveCacheDir,
  startFerretDb,
} from "./ferretdb.ts";
import {
  memoryServerFailureFile,
  readMemoryServerFailure,
  rememberMemoryServerFailure,
  startMemoryServer,
} from "./memory-server.ts";
import { describeError } from "./processes.ts";

export {
  ensureFerretDbBinary,
  FERRETDB_VERSION,
  type FerretDbBinaryOptions,
  spawnFerretDb,
} from "./ferretdb.ts";

export interface DevDatabase {
  uri: string;
  backend: "env" | "memory-server" | "ferretdb";
  description: string;
  stop(): Promise<void>;
}

export interface StartDevDatabaseOptions {
  log?: (line: string) => void;
  /** FerretDB data directory, kept on stop with the port it was served on; default a fresh temp dir removed on stop. */
  dataDir?: string;
  /** Root of the tessera cache (FerretDB binary); default `TESSERA_CACHE_DIR` or `~/.cache/tessera`. */
  cacheDir?: string;
  /** Environment to read settings from and to pass to child processes; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Yields a real MongoDB-protocol server, preferring (1) MONGODB_URI, (2) mongod via
 * mongodb-memory-server, (3) FerretDB with SQLite built from source. Call stop() when done.
 */
export async function startDevDatabase(options: StartDevDatabaseOptions = {}): Promise<DevDatabase> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.error(line));

  const configuredUri = env.MONGODB_URI;
  if (configuredUri) return announce(useConfiguredUri(configuredUri), log);

  const cacheDir = resolveCacheDir({ cacheDir: options.cacheDir, env });
  const failures: BackendFailure[] = [];
  // A mongod that could not be found or downloaded once is not looked for again at every start
  // (offline, the attempt and its line cost each start): FerretDB is used quietly.
  const failedBefore = await readMemoryServerFailure(cacheDir, env);
  if (failedBefore !== null) {
    const file = memoryServerFailureFile(cacheDir);
    failures.push({
      backend: "memory-server",
      reason: `not tried: it failed before (${failedBefore}); delete ${file} to try again`,
    });
  } else {
    try {
      return announce(await startMemoryServerBackend(env), log);
    } catch (error) {
      const reason = describeError(error);
      failures.push({ backend: "memory-server", reason });
      const remembered = await rememberMemoryServerFailure(cacheDir, env, firstLine(reason));
      const next = remembered
        ? `; using FerretDB, now and at later starts (delete ${memoryServerFailureFile(cacheDir)} to try again)`
        : "; trying FerretDB";
      log(`mongo backend: mongodb-memory-server unavailable (${firstLine(reason)})${next}`);
    }
  }
  try {
    return announce(await startFerretDbBackend({ ...options, cacheDir }, env, log), log);
  } catch (error) {
    failures.push({ backend: "ferretdb", reason: describeError(error) });
  }
  throw new Error(explainNoBackend(failures, cacheDir));
}

interface BackendFailure {
  backend: DevDatabase["backend"];
  reason: string;
}

function announce(database: DevDatabase, log: (line: string) => void): DevDatabase {
  log(`mongo backend: ${database.description}`);
  return database;
}

function useConfiguredUri(uri: string): DevDatabase {
  return {
    uri,
    backend: "env",
    description: `MONGODB_URI ${redactCredentials(uri)}`,
    // The server belongs to whoever configured it; we must not stop it.
    stop: async () => {},
  };
}

async function startMemoryServerBackend(env: NodeJS.ProcessEnv): Promise<DevDatabase> {
  const server = await startMemoryServer(env);
  const version = server.mongodVersion ? ` v${server.mongodVersion}` : "";
  return {
    uri: server.uri,
    backend: "memory-server",
    description: `mongodb-memory-server (mongod${version}) at ${server.uri}`,
    stop: server.stop,
  };
}

async function startFerretDbBackend(
  options: StartDevDatabaseOptions,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<DevDatabase> {
  const binary = await ensureFerretDbBinary({ cacheDir: options.cacheDir, env, log });
  const server = await startFerretDb({ binary, dataDir: options.dataDir, env, log });
  return {
    uri: server.uri,
    backend: "ferretdb",
    description: `ferretdb v${FERRETDB_VERSION} (sqlite) at ${server.uri}`,
    stop: server.stop,
  };
}

function explainNoBackend(failures: BackendFailure[], cacheDir: string): string {
  const reasonOf = (backend: DevDatabase["backend"]) =>
    indent(failures.find((failure) => failure.backend === backend)?.reason ?? "not tried");
  return [
    "No MongoDB server available for development/tests. Any one of these fixes it:",
    "  1. set MONGODB_URI to a running MongoDB, e.g. MONGODB_URI=mongodb://127.0.0.1:27017/ (it was not set)",
    "  2. provide a mongod for mongodb-memory-server: MONGOMS_SYSTEM_BINARY=/path/to/mongod",
    "     (or allow it to download one; raise TESSERA_MONGOMS_TIMEOUT_MS for slow links). It failed with:",
    reasonOf("memory-server"),
    `  3. install Go >= 1.24 so FerretDB v${FERRETDB_VERSION} can be built into ${ferretDbBinaryPath(cacheDir)}`,
    "     (`tsx packages/dev-db/src/cli.ts --build-only`). It failed with:",
    reasonOf("ferretdb"),
  ].join("\n");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `       ${line}`)
    .join("\n");
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? text;
}

/** URIs end up in logs; passwords must not. */
function redactCredentials(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, "//***@");
}
