import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const WORKSPACE = join(import.meta.dirname, "..", "..");
export const CLI_DIR = join(WORKSPACE, "packages", "cli");
/**
 * The tests' build of the CLI: an esbuild bundle of packages/cli/src (its packages left as imports)
 * in packages/cli/node_modules/.e2e-dist, where those imports resolve — not dist/, which packing for
 * the consumer test removes and rebuilds meanwhile. Built in a second rather than tsc's half-minute
 * (types are `pnpm typecheck`'s job; tsc's own build is what the consumer test installs).
 */
const OUT = join(CLI_DIR, "node_modules", ".e2e-dist");
const BIN = join(OUT, "tessera.mjs");
const LOCK = `${OUT}.lock`;
/** tsx's loader by path, so the binary runs from any directory. */
const TSX = pathToFileURL(join(WORKSPACE, "node_modules", "tsx", "dist", "loader.mjs")).href;

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

async function isFresh(): Promise<boolean> {
  try {
    return statSync(BIN).mtimeMs > (await newestMtime(join(CLI_DIR, "src")));
  } catch {
    return false;
  }
}

/**
 * Builds the CLI once per change of its sources; test files running side by side wait for one
 * another's build (a directory as the lock; a lock older than 3 minutes is a crashed build's).
 */
export async function buildCli(): Promise<void> {
  if (await isFresh()) return;
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 180_000) await rm(LOCK, { recursive: true, force: true });
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (await isFresh()) return;
    await rm(OUT, { recursive: true, force: true });
    await build({
      entryPoints: { main: join(CLI_DIR, "src", "main.ts") },
      outdir: OUT,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      logLevel: "error",
    });
    await writeFile(
      BIN,
      'import { main } from "./main.js";\n\nprocess.exitCode = await main(process.argv.slice(2));\n',
    );
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

/** The binary as a shell command line, for tests that run it through a shell or a terminal (`script`). */
export const CLI_BIN_COMMAND = [process.execPath, "--import", TSX, BIN].map((part) => `'${part}'`).join(" ");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built binary in a child process with no terminal (stdin, stdout and stderr are pipes).
 * In the workspace @tessera/auth-core resolves to its TypeScript sources, which tsx loads; an
 * installed CLI runs on the core's dist/ (tests/package/consumer.test.ts).
 */
export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...options.env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const child = spawn(process.execPath, ["--import", TSX, BIN, ...args], {
      cwd: options.cwd ?? WORKSPACE,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

export function spawnCli(args: readonly string[], extraEnv: NodeJS.ProcessEnv, cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...extraEnv };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return spawn(process.execPath, ["--import", TSX, BIN, ...args], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
}
