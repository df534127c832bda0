import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Auth, AuthOptions } from "@tessera/auth-core";
import { CliError, EXIT } from "./errors.ts";
import { type Io, writeLine } from "./io.ts";
import { noDatabase } from "./no-database.ts";

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
  /**
   * Whether mail leaves this machine: a `mailer` in the --config module, or SMTP_URL (with
   * TESSERA_MAIL_FROM, as the standalone server reads them). False: mails go nowhere.
   */
  mails: boolean;
  /** Where the data is, for messages: "mongodb://…/db" with credentials removed. */
  where: string;
  /** The options module read (--config, TESSERA_CONFIG or found), or null. */
  config: string | null;
  /** Where the secret came from, or null when none is configured (a random one serves this run). */
  secret: { from: "TESSERA_SECRET" | "config"; length: number } | null;
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

/**
 * The embedded database a scaffolded app's dev server runs (templates/auth/app/auth.server.ts keeps
 * its data and port in `.data/db` beside the config): its URI when it answers on that port, so
 * `tessera` commands in the app act on the app's own development data; the port alone when nothing
 * answers there (the app is stopped); null when the app never ran one.
 */
async function readAppDevDb(configFile: string): Promise<{ port: number; uri: string | undefined } | null> {
  const portFile = join(dirname(configFile), ".data", "db", "ferretdb.port");
  if (!existsSync(portFile)) return null;
  const port = Number((await readFile(portFile, "utf8")).trim());
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return null;
  const open = await new Promise<boolean>((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
    socket.once("timeout", () => {
      socket.destroy();
      done(false);
    });
  });
  return { port, uri: open ? `mongodb://127.0.0.1:${port}/` : undefined };
}

export async function recordRunningDevDb(io: Io, state: RunningDevDb): Promise<() => Promise<void>> {
  const dir = stateDir(io);
  await mkdir(dir, { recursive: true });
  const file = join(dir, "db.json");
  await writeFile(file, `${JSON.stringify(state)}\n`);
  return () => rm(file, { force: true });
}

/**
 * The app's options module. A TypeScript one (`tessera.config.ts`, as init writes it) loads through
 * tsx's programmatic API, a dependency of the CLI: it handles the module's own TypeScript imports,
 * the app's tsconfig paths and ESM/CommonJS, which a single-file transform would not, and it loads
 * only for a .ts config, so `tessera --help` stays fast. A module that fails to load (syntax, a
 * missing import, a throw at load) is a usage error naming the file and the cause.
 */
async function loadOptionsModule(path: string, cwd: string): Promise<Partial<AuthOptions>> {
  const file = isAbsolute(path) ? path : resolve(cwd, path);
  if (!existsSync(file)) throw new CliError("CONFIG_NOT_FOUND", `--config: no such file ${file}`, EXIT.usage);
  let loaded: { default?: unknown };
  try {
    if (/\.[cm]?tsx?$/.test(file)) {
      const { tsImport } = await import("tsx/esm/api");
      loaded = (await tsImport(pathToFileURL(file).href, import.meta.url)) as { default?: unknown };
    } else loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new CliError("CONFIG_INVALID", `--config: ${file} failed to load: ${describe(error)}`, EXIT.usage);
  }
  // A module compiled as CommonJS (no "type": "module" near it) arrives as { default: exports }.
  let value = loaded.default;
  if (typeof value === "object" && value !== null && "default" in value && Object.keys(value).length <= 2)
    value = (value as { default: unknown }).default;
  let exported: unknown;
  try {
    exported = typeof value === "function" ? await value() : value;
  } catch (error) {
    throw new CliError(
      "CONFIG_INVALID",
      `--config: ${file}'s default export threw: ${describe(error)}`,
      EXIT.usage,
    );
  }
  if (typeof exported !== "object" || exported === null) {
    throw new CliError(
      "CONFIG_INVALID",
      `--config: ${file} must default-export the options object (or a function returning it)`,
      EXIT.usage,
    );
  }
  return exported as Partial<AuthOptions>;
}

/** The first lines of an error's message (a transform error lists its location there). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").slice(0, 6).join("\n").trim();
}

function redact(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, "//");
}

/** The URI's database, or "tessera" (after --db, TESSERA_DB_NAME and the module's dbName). */
function databaseName(uri: string): string {
  const fromUri = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri)?.[1];
  return fromUri ? decodeURIComponent(fromUri) : "tessera";
}

/** The names `tessera` looks for, in this order, in the working directory and then each parent. */
const CONFIG_NAMES = ["tessera.config.ts", "tessera.config.mjs", "tessera.config.js"] as const;

/**
 * The app's options module: --config, else TESSERA_CONFIG (commander reads both into `config`), else
 * the first `tessera.config.ts|mjs|js` in the working directory or a parent — so an admin command run
 * anywhere inside the app reads the same database and secret as the app.
 */
function findConfigFile(options: ConnectionOptions, cwd: string): string | undefined {
  if (options.config) return options.config;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = CONFIG_NAMES.map((name) => join(dir, name)).find((file) => existsSync(file));
    if (found) return found;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Opens the core on the configured database: the URI from --uri, MONGODB_URI or the config's
 * `database` (in that order); the database name from --db, TESSERA_DB_NAME, the config's `dbName`,
 * the URI's path, "tessera" (in that order); else the database of a running `tessera db start`. With
 * none of them it refuses (exit 2, saying how to configure one): an admin command on a throwaway
 * database would report success and keep nothing.
 */
export async function openAuth(options: ConnectionOptions, io: Io): Promise<OpenedAuth> {
  const configFile = findConfigFile(options, io.cwd);
  const fromModule = configFile ? await loadOptionsModule(configFile, io.cwd) : {};
  const cleanups: (() => Promise<void>)[] = [];
  let uri = options.uri ?? io.env.MONGODB_URI;
  let moduleDbName: string | undefined;
  let database: AuthOptions["database"] | undefined;
  const configured = fromModule.database;
  if (configured && "uri" in configured) {
    uri ??= configured.uri;
    moduleDbName = configured.dbName;
  } else if (configured && !uri) database = configured;
  const appDevDb = !uri && !database && configFile ? await readAppDevDb(resolve(io.cwd, configFile)) : null;
  if (!uri && !database) uri = appDevDb?.uri;
  if (!uri && !database) uri = (await readRunningDevDb(io))?.uri;
  if (!uri && !database)
    throw await noDatabase(
      io,
      configFile === undefined ? undefined : { file: configFile, configured, stoppedPort: appDevDb?.port },
    );
  const dbName = uri ? (options.db ?? io.env.TESSERA_DB_NAME ?? moduleDbName ?? databaseName(uri)) : null;
  if (uri) database = { uri, dbName: dbName! };
  const configuredSecret = io.env.TESSERA_SECRET
    ? { from: "TESSERA_SECRET" as const, length: io.env.TESSERA_SECRET.length }
    : fromModule.secret
      ? { from: "config" as const, length: fromModule.secret.length }
      : null;
  const secret = io.env.TESSERA_SECRET || fromModule.secret || randomBytes(32).toString("base64url");
  const { createAuth, createSmtpMailer } = await import("@tessera/auth-core");
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const smtpUrl = io.env.SMTP_URL?.trim();
  const smtp =
    !fromModule.mailer && smtpUrl
      ? createSmtpMailer({
          url: smtpUrl,
          from: io.env.TESSERA_MAIL_FROM?.trim() || "Tessera <no-reply@localhost>",
        })
      : null;
  if (smtp) cleanups.unshift(async () => smtp.close());
  const auth = createAuth({
    ...fromModule,
    database: database!,
    secret,
    logger: fromModule.logger ?? silent,
    // A CLI run administers webhooks; the app's servers deliver them (features/webhooks).
    webhooks: { ...fromModule.webhooks, worker: false },
    // Nor does it send queued mails: `tessera mail retry` queues them for the servers' workers.
    mailQueue: { ...fromModule.mailQueue, worker: false },
    ...(smtp ? { mailer: smtp } : {}),
  } as AuthOptions);
  const where = uri ? `${redact(uri)} (database ${dbName})` : `the database of ${configFile}`;
  return {
    auth,
    config: configFile ? resolve(io.cwd, configFile) : null,
    secret: configuredSecret,
    mails: Boolean(fromModule.mailer || smtp),
    where,
    async close() {
      await auth.close();
      for (const cleanup of cleanups) await cleanup();
    },
  };
}

/**
 * A database that does not answer, as the user can act on it: which one (credentials removed) and
 * the driver's own reason (refused, unknown host, timed out), which the core keeps as the `cause`
 * of its SERVICE_UNAVAILABLE.
 */
export function unreachable(error: unknown, where: string): CliError | null {
  let cause: unknown = error;
  let reason: string | null = null;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause) {
    if (/^Mongo(Server|Network)/.test(cause.name)) reason = cause.message;
  }
  const outage = (error as { code?: unknown } | null)?.code === "SERVICE_UNAVAILABLE";
  if (reason === null && !outage) return null;
  return new CliError(
    "DATABASE_UNREACHABLE",
    `cannot reach the database ${where}: ${reason ?? "it did not answer in time"}`,
  );
}

function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

interface EmbeddedDb {
  uri: string;
  backend: string;
  stop(): Promise<void>;
}

/**
 * @tessera/dev-db, an optional dependency of the CLI, resolved from where the CLI is installed (an
 * import resolves from this module, never from the current directory), so `tessera db start` works
 * from any directory and from a global or npx install. A clear message when the optional install
 * was skipped.
 */
export async function startEmbedded(io: Io, dataDir: string | undefined): Promise<EmbeddedDb> {
  let devDb: typeof import("@tessera/dev-db");
  try {
    devDb = await import("@tessera/dev-db");
  } catch (error) {
    if (!isModuleMissing(error))
      throw new CliError(
        "NO_DATABASE",
        `the embedded database (@tessera/dev-db) failed to load: ${describe(error)}`,
      );
    throw new CliError(
      "NO_DATABASE",
      "the embedded database (@tessera/dev-db, an optional dependency of @tessera/cli) is not installed beside the CLI: reinstall @tessera/cli with optional dependencies, or use a MongoDB server of your own (MONGODB_URI)",
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
