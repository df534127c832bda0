import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import {
  access,
  chmod,
  constants,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MongoClient } from "mongodb";
import { claimDataDir, type DataDirClaim } from "./data-dir-lock.ts";
import { applyFerretDbChanges, ferretDbPatchKey } from "./ferretdb-patch.ts";
import {
  collectOutput,
  connectOnce,
  describeCommandFailure,
  describeError,
  findFreePort,
  hasExited,
  isPortFree,
  keepTail,
  runCommand,
  sleep,
  terminateProcess,
} from "./processes.ts";

export const FERRETDB_VERSION = "1.24.2";
const FERRETDB_MODULE = "github.com/FerretDB/FerretDB";
const READY_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;
/** Another process may grab the port between our probe and FerretDB's bind; a fresh port usually fixes it. */
const PORT_ATTEMPTS = 3;

export interface FerretDbBinaryOptions {
  /** Root of the tessera cache; default `TESSERA_CACHE_DIR` or `~/.cache/tessera`. */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface FerretDbServerOptions {
  binary: string;
  /**
   * Kept on stop, and so is the port (in `ferretdb.port` there: the URI stays the same from one
   * start to the next while the port is free); when omitted a temp dir is created and removed on stop.
   */
  dataDir?: string;
  env: NodeJS.ProcessEnv;
  /** Says when the kept port is taken and another one is used. @default console.error */
  log?: (line: string) => void;
}

export interface FerretDbServer {
  uri: string;
  stop(): Promise<void>;
}

export function resolveCacheDir(options: FerretDbBinaryOptions = {}): string {
  const env = options.env ?? process.env;
  // `||` so an empty TESSERA_CACHE_DIR does not turn into a path relative to the working directory.
  return options.cacheDir || env.TESSERA_CACHE_DIR || join(homedir(), ".cache", "tessera");
}

/** Named after our changes' hash (ferretdb-patch.ts): a change to go/added or go/patches builds anew. */
export function ferretDbBinaryPath(cacheDir: string): string {
  return join(cacheDir, `ferretdb-${FERRETDB_VERSION}-${ferretDbPatchKey()}`, "ferretdb");
}

/** Returns the cached FerretDB binary, building it first when it is missing. */
export async function ensureFerretDbBinary(options: FerretDbBinaryOptions = {}): Promise<string> {
  const binary = ferretDbBinaryPath(resolveCacheDir(options));
  if (await isExecutable(binary)) return binary;
  const log = options.log ?? ((line: string) => console.error(line));
  log(`building FerretDB v${FERRETDB_VERSION} into ${binary} (needs Go >= 1.24; ~70 s the first time)`);
  const started = Date.now();
  await buildFerretDbBinary(binary, options.env ?? process.env);
  log(`built FerretDB v${FERRETDB_VERSION} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return binary;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/*
 * Why not `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` (the documented way):
 * - the Go proxy may refuse the `@v/list` deprecation lookup that `go install` makes (403 here), and
 * - even when it builds, the binary panics at startup ("Invalid build/version/version.txt file content")
 *   because the go:embed-ed build/version/version.txt is not part of the module zip.
 * So we fetch the exact module version, add version.txt to a writable copy and build that copy.
 */
async function buildFerretDbBinary(target: string, env: NodeJS.ProcessEnv): Promise<void> {
  const goEnv: NodeJS.ProcessEnv = { ...env, CGO_ENABLED: "0" };
  const workDir = await mkdtemp(join(tmpdir(), "tessera-ferretdb-src-"));
  await mkdir(dirname(target), { recursive: true });
  // Building to a unique temp name and renaming makes concurrent builders safe: rename is atomic.
  const partialBinary = `${target}.partial-${process.pid}-${randomUUID()}`;
  try {
    const sourceDir = join(workDir, "FerretDB");
    await preparePatchedSource(sourceDir, goEnv);
    await runGo(["build", "-buildvcs=false", "-o", partialBinary, "./cmd/ferretdb"], goEnv, sourceDir);
    await rename(partialBinary, target);
  } finally {
    await makeTreeWritable(workDir).catch(() => undefined);
    await rm(workDir, { recursive: true, force: true });
    await rm(partialBinary, { force: true });
  }
}

/**
 * The module's source in `sourceDir` (which must not exist yet), writable, with version.txt and our
 * changes (go/, ferretdb-patch.ts) applied: what the build compiles, and what dev-db.test.ts checks
 * and runs Go tests in.
 * @internal Exported for dev-db.test.ts.
 */
export async function preparePatchedSource(sourceDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const moduleDir = await downloadFerretDbModule(env);
  await cp(moduleDir, sourceDir, { recursive: true });
  await makeTreeWritable(sourceDir);
  await writeFile(join(sourceDir, "build", "version", "version.txt"), `v${FERRETDB_VERSION}\n`);
  // go/patches and go/added (ferretdb-patch.ts): `_id` conditions, orders and counts from SQLite's indexes, faster reads.
  await applyFerretDbChanges(sourceDir);
}

async function downloadFerretDbModule(env: NodeJS.ProcessEnv): Promise<string> {
  const stdout = await runGo(["mod", "download", "-json", `${FERRETDB_MODULE}@v${FERRETDB_VERSION}`], env);
  const parsed: unknown = JSON.parse(stdout);
  const dir = typeof parsed === "object" && parsed !== null && "Dir" in parsed ? parsed.Dir : undefined;
  if (typeof dir !== "string" || dir === "") {
    throw new Error(`\`go mod download\` did not report a module directory:\n${keepTail(stdout)}`);
  }
  return dir;
}

async function runGo(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  const result = await runCommand("go", args, { env, cwd }).catch((error: unknown) => {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "`go` is not on PATH" : describeError(error);
    throw new Error(`cannot build FerretDB: ${reason}`);
  });
  if (result.code !== 0)
    throw new Error(`cannot build FerretDB: ${describeCommandFailure("go", args, result)}`);
  return result.stdout;
}

/** The Go module cache is read-only; the copy must be writable to add version.txt and to be deleted. */
async function makeTreeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await makeTreeWritable(path);
    else if (entry.isFile()) await chmod(path, 0o644);
  }
}

/**
 * Starts FerretDB (SQLite backend) on a free loopback port and waits until it answers `ping`. A kept
 * data dir that another process's FerretDB serves already is not started on twice (two servers on
 * the same SQLite files): its server is used, and stays that process's to stop (data-dir-lock.ts).
 */
export async function startFerretDb(options: FerretDbServerOptions): Promise<FerretDbServer> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "tessera-ferretdb-data-")));
  const log = options.log ?? ((line: string) => console.error(line));
  let claim: DataDirClaim | null = null;
  try {
    await mkdir(dataDir, { recursive: true });
    if (!ownsDataDir) {
      const found = await claimDataDir(dataDir, { isServing: answersPing, log });
      if (found.kind === "served") {
        log(
          `mongo backend: FerretDB (pid ${found.pid}) already serves ${dataDir} on port ${found.port}; using it (it stops with the process that started it)`,
        );
        return { uri: `mongodb://127.0.0.1:${found.port}/`, stop: async () => {} };
      }
      claim = found;
    }
    const portFile = ownsDataDir ? null : join(dataDir, PORT_FILE);
    const keptPort = portFile ? await readKeptPort(portFile) : null;
    const running = await launchOnFreePort(options.binary, dataDir, options.env, keptPort);
    if (portFile && running.port !== keptPort) {
      if (keptPort !== null)
        log(
          `mongo backend: port ${keptPort} (kept in ${portFile}) is taken; FerretDB listens on ${running.port}`,
        );
      await writeFile(portFile, `${running.port}\n`).catch(() => undefined);
    }
    const server = manageServer(running, dataDir, ownsDataDir, claim);
    await claim?.publish(running.child.pid ?? process.pid, running.port).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    return server;
  } catch (error) {
    await claim?.release();
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Whether a MongoDB-protocol server answers a ping on 127.0.0.1:port. */
function answersPing(port: number): Promise<boolean> {
  return connectOnce(port)
    .then(() => pingOnce(`mongodb://127.0.0.1:${port}/`))
    .then(
      () => true,
      () => false,
    );
}

interface RunningFerretDb {
  child: ChildProcess;
  uri: string;
  port: number;
}

/** Beside the SQLite files of a kept data dir (FerretDB reads only `*.sqlite` there). */
const PORT_FILE = "ferretdb.port";

/** The port a kept data dir was last served on, or null (none yet, or not a port). */
async function readKeptPort(file: string): Promise<number | null> {
  const text = await readFile(file, "utf8").catch(() => "");
  const port = Number(text.trim());
  return Number.isInteger(port) && port >= 1024 && port <= 65535 ? port : null;
}

/** On `preferredPort` when it is free, else on a free port. */
async function launchOnFreePort(
  binary: string,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  preferredPort: number | null,
): Promise<RunningFerretDb> {
  let preferred = preferredPort !== null && (await isPortFree(preferredPort)) ? preferredPort : null;
  for (let attempt = 1; ; attempt++) {
    const port = preferred ?? (await findFreePort());
    preferred = null;
    try {
      return await launchFerretDb(binary, dataDir, port, env);
    } catch (error) {
      const lostPortRace = describeError(error).includes("address already in use");
      if (!lostPortRace || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/**
 * Go's collector, less often: FerretDB allocates several objects per field of every document it
 * reads, and with Go's default (a collection each time the heap doubles) the collector and the
 * preemptions it causes took about a fifth of the database's CPU on organization reads. GOGC=400
 * lets the heap grow five-fold between collections; measured on get-full-organization of 100
 * members (bench/scale.ts seed, 10 connections), database CPU 9.1–9.5 → 6.5–6.7 ms a request, throughput
 * +40%, the database's peak RSS 55 → 80 MB. GOMEMLIMIT caps that growth: near 1 GiB Go collects
 * as often as it must. Either can be set in the environment to override it.
 * @internal Exported for dev-db.test.ts.
 */
export function ferretDbEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { GOGC: "400", GOMEMLIMIT: "1GiB", ...env };
}

export interface SpawnFerretDbOptions {
  /** The environment the process starts from (ferretDbEnv adds the collector's settings). */
  env: NodeJS.ProcessEnv;
  logLevel: "warn" | "error";
  /** Whether its standard output is piped (for the start-up error message) or dropped. */
  stdout: "pipe" | "ignore";
}

/**
 * The FerretDB process on the SQLite data in `dataDir`, listening on 127.0.0.1:`port`; standard
 * error is piped. The one place its arguments and environment are set (dev-db's start and the
 * reliability harness, which kills and restarts it on a fixed port).
 */
export function spawnFerretDb(
  binary: string,
  dataDir: string,
  port: number,
  options: SpawnFerretDbOptions,
): ChildProcess {
  // synchronous(normal): SQLite in WAL mode writes each commit to the log without waiting for the
  // disk (docs/scale.md "Commits do not wait for the disk"); a killed process loses nothing.
  const args = [
    "--handler=sqlite",
    `--sqlite-url=file:${dataDir}/?_pragma=synchronous(normal)`,
    `--listen-addr=127.0.0.1:${port}`,
    "--state-dir=-",
    "--debug-addr=-",
    "--telemetry=disable",
    `--log-level=${options.logLevel}`,
  ];
  return spawn(binary, args, { env: ferretDbEnv(options.env), stdio: ["ignore", options.stdout, "pipe"] });
}

async function launchFerretDb(
  binary: string,
  dataDir: string,
  port: number,
  env: NodeJS.ProcessEnv,
): Promise<RunningFerretDb> {
  const child = spawnFerretDb(binary, dataDir, port, { env, logLevel: "warn", stdout: "pipe" });
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });
  const stdout = collectOutput(child.stdout);
  const stderr = collectOutput(child.stderr);
  const uri = `mongodb://127.0.0.1:${port}/`;
  const failure = () => {
    if (spawnError) return spawnError.message;
    if (hasExited(child)) return `it exited early with ${child.signalCode ?? `code ${child.exitCode}`}`;
    return undefined;
  };
  try {
    await waitUntilPingable(uri, port, failure);
    return { child, uri, port };
  } catch (error) {
    await terminateProcess(child, STOP_GRACE_MS);
    const output = [stdout().trim(), stderr().trim()].filter(Boolean).join("\n");
    throw new Error(`FerretDB did not start (${describeError(error)})${output ? `:\n${output}` : ""}`);
  }
}

async function waitUntilPingable(
  uri: string,
  port: number,
  failure: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const reason = failure();
    if (reason) throw new Error(reason);
    try {
      // A plain TCP probe fails instantly while nothing listens; the driver would wait out its selection timeout.
      await connectOnce(port);
      await pingOnce(uri);
      return;
    } catch (error) {
      lastError = error;
      await sleep(50);
    }
  }
  throw new Error(`no ping answer within ${READY_TIMEOUT_MS / 1000} s: ${describeError(lastError)}`);
}

async function pingOnce(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1_000, connectTimeoutMS: 1_000 });
  try {
    await client.db("admin").command({ ping: 1 });
  } finally {
    await client.close();
  }
}

function manageServer(
  running: RunningFerretDb,
  dataDir: string,
  ownsDataDir: boolean,
  claim: DataDirClaim | null,
): FerretDbServer {
  // If the owner exits without calling stop(), do not leave an orphaned server or its temp data behind.
  const cleanUpOnExit = () => {
    running.child.kill("SIGKILL");
    claim?.releaseSync();
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  process.once("exit", cleanUpOnExit);
  let stopping: Promise<void> | undefined;
  const stop = async () => {
    process.off("exit", cleanUpOnExit);
    await terminateProcess(running.child, STOP_GRACE_MS);
    await claim?.release();
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  return {
    uri: running.uri,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
