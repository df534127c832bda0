import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Auth, AuthOptions } from "@tessera/auth-core";
import { CliError, EXIT } from "./errors.ts";
import { type Io, writeLine } from "./io.ts";

/** The options every command that reaches the database takes (global options of `tessera`). */
export interface ConnectionOptions {
  /** --uri, else MONGODB_URI. */
  uri?: string | undefined;
  /** --db, else TESSERA_DB_NAME, else the URI's database, else "tessera". */
  db?: string | undefined;
  /** --config: the app's Tessera options module (default export: options, or a function returning them). */
  config?: string | undefined;
}

export interface OpenedAuth {
  auth: Auth;
  /** Where the data is, for messages: "mongodb://…/db" with credentials removed. */
  where: string;
  close(): Promise<void>;
}

/** Where `tessera db start` leaves the URI of the database it runs, for the commands run beside it. */
export function stateDir(io: Io): string {
  return io.env.TESSERA_STATE_DIR ?? join(io.cwd, ".tessera");
}

interface RunningDevDb {
  uri: string;
  pid: number;
}

export async function readRunningDevDb(io: Io): Promise<RunningDevDb | null> {
  const file = join(stateDir(io), "db.json");
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(await readFile(file, "utf8")) as RunningDevDb;
    process.kill(state.pid, 0);
    return state;
  } catch {
    return null;
  }
}

export async function recordRunningDevDb(io: Io, state: RunningDevDb): Promise<() => Promise<void>> {
  const dir = stateDir(io);
  await mkdir(dir, { recursive: true });
  const file = join(dir, "db.json");
  await writeFile(file, `${JSON.stringify(state)}\n`);
  return () => rm(file, { force: true });
}

export async function loadOptionsModule(path: string, cwd: string): Promise<Partial<AuthOptions>> {
  const file = isAbsolute(path) ? path : resolve(cwd, path);
  if (!existsSync(file)) throw new CliError("CONFIG_NOT_FOUND", `--config: no such file ${file}`, EXIT.usage);
  if (/\.[cm]?tsx?$/.test(file)) await registerTypeScript(file);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new CliError("CONFIG_INVALID", `--config: ${file} failed to load: ${describe(error)}`);
  }
  const exported = typeof loaded.default === "function" ? await loaded.default() : loaded.default;
  if (typeof exported !== "object" || exported === null) {
    throw new CliError("CONFIG_INVALID", `--config: ${file} must default-export the options object`);
  }
  return exported as Partial<AuthOptions>;
}

async function registerTypeScript(file: string): Promise<void> {
  try {
    const specifier = "tsx/esm/api";
    const tsx = (await import(specifier)) as { register(): unknown };
    tsx.register();
  } catch {
    throw new CliError(
      "CONFIG_NEEDS_TSX",
      `--config: ${file} is TypeScript; install tsx in the app (npm i -D tsx) or pass a .js module`,
      EXIT.usage,
    );
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function redact(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, "//");
}

/** The URI's database, or "tessera" (after --db, TESSERA_DB_NAME and the module's dbName). */
function databaseName(uri: string): string {
  const fromUri = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri)?.[1];
  return fromUri ? decodeURIComponent(fromUri) : "tessera";
}

/**
 * Opens the core on the configured database: --uri / MONGODB_URI (or the module's own
 * `database`), else the database of a running `tessera db start`, else a throwaway embedded one
 * (said on stderr: its data is gone when the command ends).
 */
export async function openAuth(options: ConnectionOptions, io: Io): Promise<OpenedAuth> {
  const fromModule = options.config ? await loadOptionsModule(options.config, io.cwd) : {};
  const cleanups: (() => Promise<void>)[] = [];
  let uri = options.uri ?? io.env.MONGODB_URI;
  let moduleDbName: string | undefined;
  let database: AuthOptions["database"] | undefined;
  const configured = fromModule.database;
  if (!uri && configured) {
    if ("uri" in configured) {
      uri = configured.uri;
      moduleDbName = configured.dbName;
    } else database = configured;
  }
  if (!uri && !database) {
    const running = await readRunningDevDb(io);
    if (running) uri = running.uri;
    else {
      writeLine(
        io.stderr,
        "no --uri or MONGODB_URI: using a throwaway embedded database (`tessera db start` keeps one)",
      );
      const dev = await startEmbedded(io, undefined);
      uri = dev.uri;
      cleanups.push(dev.stop);
    }
  }
  const dbName = uri ? (options.db ?? io.env.TESSERA_DB_NAME ?? moduleDbName ?? databaseName(uri)) : null;
  if (uri) database = { uri, dbName: dbName! };
  const secret = io.env.TESSERA_SECRET ?? fromModule.secret ?? randomBytes(32).toString("base64url");
  const { createAuth } = await import("@tessera/auth-core");
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const auth = createAuth({
    ...fromModule,
    database: database!,
    secret,
    logger: fromModule.logger ?? silent,
  } as AuthOptions);
  const where = uri ? `${redact(uri)} (database ${dbName})` : "the --config module's database";
  return {
    auth,
    where,
    async close() {
      await auth.close();
      for (const cleanup of cleanups) await cleanup();
    },
  };
}

interface EmbeddedDb {
  uri: string;
  backend: string;
  stop(): Promise<void>;
}

/** @tessera/dev-db, an optional peer: a clear message when it is not installed. */
export async function startEmbedded(io: Io, dataDir: string | undefined): Promise<EmbeddedDb> {
  let devDb: typeof import("@tessera/dev-db");
  try {
    const specifier = "@tessera/dev-db";
    devDb = (await import(specifier)) as typeof import("@tessera/dev-db");
  } catch {
    throw new CliError(
      "NO_DATABASE",
      "no --uri or MONGODB_URI is set and the embedded database is not installed: set MONGODB_URI, or `npm install @tessera/dev-db`",
    );
  }
  const env = { ...io.env };
  delete env.MONGODB_URI;
  return devDb.startDevDatabase({
    env,
    ...(dataDir ? { dataDir } : {}),
    log: (line) => writeLine(io.stderr, line),
  });
}
