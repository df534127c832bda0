import { execFile, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const WORKSPACE = join(import.meta.dirname, "..", "..");
export const CLI_DIR = join(WORKSPACE, "packages", "cli");
const BIN = join(CLI_DIR, "bin", "tessera.mjs");
/** tsx's loader by path, so the binary runs from any directory. */
const TSX = pathToFileURL(join(WORKSPACE, "node_modules", "tsx", "dist", "loader.mjs")).href;

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds packages/cli (tsc to dist/) unless dist/ is newer than every source file. */
export async function buildCli(): Promise<void> {
  let built = 0;
  try {
    built = statSync(join(CLI_DIR, "dist", "main.js")).mtimeMs;
  } catch {}
  if (built > (await newestMtime(join(CLI_DIR, "src")))) return;
  await run("pnpm", ["run", "build"], { cwd: CLI_DIR });
}

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
