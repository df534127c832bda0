/**
 * tsx packages/dev-db/src/cli.ts               start a dev MongoDB, print its URI, stop on SIGINT/SIGTERM
 * tsx packages/dev-db/src/cli.ts --build-only  only make sure the FerretDB binary is built (CI pre-build)
 *
 * The URI goes to stdout (for scripts); logs go to stderr.
 */
import { type DevDatabase, ensureFerretDbBinary, startDevDatabase } from "./index.ts";

const USAGE = "usage: tsx packages/dev-db/src/cli.ts [--build-only]";

async function main(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const unknown = args.filter((arg) => arg !== "--build-only");
  if (unknown.length > 0) throw new Error(`unknown argument(s): ${unknown.join(" ")}\n${USAGE}`);
  if (args.includes("--build-only")) {
    console.log(await ensureFerretDbBinary());
    return;
  }
  const database = await startDevDatabase();
  console.log(database.uri);
  stopOnSignals(database);
}

function stopOnSignals(database: DevDatabase): void {
  const stop = (signal: NodeJS.Signals) => {
    console.error(`dev-db: ${signal} received, stopping ${database.backend}`);
    database.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
