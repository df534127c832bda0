import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { readRunningDevDb, recordRunningDevDb, startEmbedded, stateDir } from "../connection.ts";
import { CliError, usageError } from "../errors.ts";
import { writeLine } from "../io.ts";
import { contextOf, type RunContext, report } from "../kit.ts";

export interface DbStartResult {
  uri: string;
  backend: string;
}

export interface DbStartOptions {
  /** Keep the data in this directory (FerretDB); default `.tessera/data`. */
  dataDir?: string | undefined;
  /** Listen on this port (1024–65535); default the port of the last start with this data, else a free one. */
  port?: number | undefined;
}

/**
 * `tessera db start`: starts the embedded database and records its URI for the commands run beside
 * it (`.tessera/db.json`). Resolves with a `stop` to call on Ctrl-C.
 */
export async function dbStartAction(
  run: RunContext,
  options: DbStartOptions,
): Promise<DbStartResult & { stop(): Promise<void> }> {
  const running = await readRunningDevDb(run.io);
  if (running) {
    throw new CliError(
      "ALREADY_RUNNING",
      `an embedded database already runs here (pid ${running.pid}): ${running.uri}`,
    );
  }
  const dataDir = resolve(run.io.cwd, options.dataDir ?? `${stateDir(run.io)}/data`);
  if (options.port !== undefined) await claimPort(dataDir, options.port);
  const database = await startEmbedded(run.io, dataDir);
  const port = Number(new URL(database.uri).port);
  if (options.port !== undefined && port !== options.port) {
    await database.stop();
    throw new CliError(
      "PORT_TAKEN",
      `--port ${options.port}: the embedded database could not listen there (it got ${port}); is another server on it?`,
    );
  }
  const forget = await recordRunningDevDb(run.io, { uri: database.uri, pid: process.pid });
  return {
    uri: database.uri,
    backend: database.backend,
    async stop() {
      await forget();
      await database.stop();
    },
  };
}

export const dbCommand = new Command("db").description("the embedded development database").addCommand(
  new Command("start")
    .description("start the embedded database, print its URI, stop on Ctrl-C")
    .option("--data-dir <dir>", "where to keep its data (default .tessera/data)")
    .option("--port <n>", "listen on this port (default: the last start's, else a free one)", parsePort)
    .action(async (options: DbStartOptions, command: Command) => {
      const run = contextOf(command);
      const started = await dbStartAction(run, options);
      report(run, { uri: started.uri, backend: started.backend }, (data) => [data.uri]);
      if (!run.json)
        writeLine(
          run.io.stderr,
          "embedded database running: tessera commands run here use it unless MONGODB_URI or a config names a database; Ctrl-C stops it",
        );
      await waitForSignal(run, started.stop);
    }),
);

/**
 * The embedded FerretDB keeps the port of a data directory in `ferretdb.port` there and listens on it
 * again when it is free: writing it first is how a chosen port reaches it. A port in use is refused
 * here, before anything starts.
 */
async function claimPort(dataDir: string, port: number): Promise<void> {
  const free = await new Promise<boolean>((done) => {
    const probe = createServer()
      .once("error", () => done(false))
      .listen(port, "127.0.0.1", () => probe.close(() => done(true)));
  });
  if (!free)
    throw new CliError(
      "PORT_TAKEN",
      `--port ${port}: the port is in use (choose another, or leave --port out)`,
    );
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, "ferretdb.port"), `${port}\n`);
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1024 || port > 65535)
    throw usageError(`--port must be a whole number from 1024 to 65535, got ${value}`);
  return port;
}

function waitForSignal(run: RunContext, stop: () => Promise<void>): Promise<void> {
  return new Promise((done, fail) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (!run.json) writeLine(run.io.stderr, `${signal}: stopping the embedded database`);
      stop().then(done, fail);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}
