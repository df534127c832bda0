import { SERVER_BUNDLE, SERVER_ENV, SERVER_NODE_FLAGS } from "../packages/auth-core/src/server/build.ts";
import { type ServeProcess, spawnServerProcess } from "../tests/e2e/serve-process.ts";

/** A running bundled server (what `pnpm serve` runs), started by the bench. */
export type BundledServer = ServeProcess;

/**
 * `node <flags> dist-serve/main.mjs` with exactly `env` (plus PATH, HOME and SERVER_ENV), as the
 * `serve` script runs it — not through tsx, whose loader thread would count in the server's RSS.
 * The bundle must have been built (`buildServer`).
 */
export function spawnBundledServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
  extraFlags: string[] = [],
): BundledServer {
  return spawnServerProcess(
    [...SERVER_NODE_FLAGS, ...extraFlags, SERVER_BUNDLE],
    { ...SERVER_ENV, ...env },
    timeoutMs,
  );
}
