/**
 * `pnpm serve`: the standalone server (docs/decisions/0003-standalone-server.md "Standalone server"). Prints exactly one
 * `Tessera listening on <url>` line on stdout once requests are served (tests parse it), and exits 0
 * after a graceful shutdown on SIGTERM/SIGINT; a second signal exits at once.
 */
import { ServerConfigError } from "./env-config.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer | null = null;
let stopRequested = false;

function stop(signal: NodeJS.Signals): void {
  if (stopRequested) {
    console.error(`tessera: ${signal} again, exiting without waiting`);
    process.exit(1);
  }
  stopRequested = true;
  console.error(`tessera: ${signal} received, shutting down`);
  // During startup the server does not exist yet; main() closes it as soon as it does.
  if (server) closeAndExit(server);
}

function closeAndExit(running: RunningServer): void {
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("tessera: shutdown failed", error);
      process.exit(1);
    },
  );
}

async function main(): Promise<void> {
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  try {
    server = await startServer();
  } catch (error) {
    // Configuration mistakes are the user's to fix: the message says how; a stack would bury it.
    const known = error instanceof ServerConfigError || error instanceof TypeError;
    console.error(`tessera: failed to start: ${error instanceof Error ? error.message : String(error)}`);
    if (!known && error instanceof Error && error.stack) console.error(error.stack);
    process.exit(1);
  }
  if (stopRequested) return closeAndExit(server);
  console.log(`Tessera listening on ${server.url}`);
}

void main();
