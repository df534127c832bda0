/**
 * Running an app outside the repository as its user would (the e2e app tests): commands in their
 * own process groups, so that cleanup ends everything they started (a dev server's embedded
 * database included).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** What a machine with only Node has: no test database, no NODE_ENV, no vitest settings. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    ...(process.env.TESSERA_CACHE_DIR ? { TESSERA_CACHE_DIR: process.env.TESSERA_CACHE_DIR } : {}),
  };
}

/**
 * Runs a command to its end in its own process group, added to `children` for cleanup; resolves
 * with its output, rejects with it on a non-zero exit.
 */
export function runInGroup(
  children: ChildProcess[],
  command: string,
  args: string[],
  cwd: string,
  env = cleanEnv(),
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`)),
    );
  });
}

/**
 * Starts a long-running command (a dev server) in its own process group, added to `children`;
 * `ready` resolves once its output contains `readyText`, and rejects with the output if it exits
 * first. `log()` is everything it printed so far.
 */
export function startInGroup(
  children: ChildProcess[],
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; readyText: string },
): { child: ChildProcess; ready: Promise<void>; log: () => string } {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(options.readyText)) resolve();
    };
    child.stdout?.on("data", watch);
    child.stderr?.on("data", watch);
    child.once("exit", (code) =>
      reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`)),
    );
  });
  return { child, ready, log: () => output };
}

/** Ends a process and everything it started. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
}

/** A TCP port nobody listens on right now (on 127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
