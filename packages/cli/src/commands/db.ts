import { resolve } from "node:path";
import { Command } from "commander";
import { readRunningDevDb, recordRunningDevDb, startEmbedded, stateDir } from "../connection.ts";
import { CliError } from "../errors.ts";
import { writeLine } from "../io.ts";
import { contextOf, type RunContext, report } from "../kit.ts";

export interface DbStartResult {
  uri: string;
  backend: string;
}

export interface DbStartOptions {
  /** Keep the data in this directory (FerretDB); default `.tessera/data`. */
  dataDir?: string | undefined;
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
  const database = await startEmbedded(run.io, dataDir);
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
    .action(async (options: DbStartOptions, command: Command) => {
      const run = contextOf(command);
      const started = await dbStartAction(run, options);
      report(run, { uri: started.uri, backend: started.backend }, (data) => [data.uri]);
      if (!run.json) writeLine(run.io.stderr, "embedded database running; Ctrl-C stops it");
      await waitForSignal(run, started.stop);
    }),
);

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
