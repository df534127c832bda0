import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const MAIN = join(REPO_ROOT, "packages", "auth-core", "src", "server", "main.ts");
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface ServeProcess {
  child: ChildProcess;
  /** Printed API URL, e.g. http://localhost:41234/api/auth (null until listening). */
  url: string | null;
  stdout(): string;
  stderr(): string;
  /** Exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Resolves with the API URL once `Tessera listening on …` was printed; rejects if it exits first. */
  listening: Promise<string>;
  /** SIGKILLs the process if it is still running (test cleanup). */
  kill(): void;
}

/**
 * Spawns `main.ts` in its own node process, as `pnpm serve` would run it, with exactly `env`
 * (plus PATH and HOME): nothing from the test runner (NODE_ENV=test, VITEST…) leaks in.
 */
export function spawnServe(env: Record<string, string>, timeoutMs = 30_000): ServeProcess {
  return spawnServerProcess(["--import", TSX_LOADER, MAIN], env, timeoutMs);
}

/**
 * `node <args>` from the repository root with exactly `env` (plus PATH and HOME), watching stdout
 * for the server's `Tessera listening on …` line (or `listeningLine`, whose first group is the
 * URL). Shared by the e2e tests and the bench.
 */
export function spawnServerProcess(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
  listeningLine = /^Tessera listening on (http:\/\/\S+)$/m,
): ServeProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  const handle: ServeProcess = {
    child,
    url: null,
    stdout: () => out,
    stderr: () => err,
    exited,
    listening: new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server not listening after ${timeoutMs} ms\n${err}`)),
        timeoutMs,
      );
      const onData = () => {
        const url = out.match(listeningLine)?.[1];
        if (!url) return;
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        handle.url = url;
        resolve(url);
      };
      child.stdout?.on("data", onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}) before listening\n${err}`));
      });
    }),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
  handle.listening.catch(() => {});
  return handle;
}

/** The shared test server's URI with `dbName` as the database path (the server uses the URI's db). */
export function withDbName(uri: string, dbName: string): string {
  const [base = "", query] = uri.split("?", 2);
  const hostsEnd = base.indexOf("/", base.indexOf("://") + 3);
  const hosts = hostsEnd === -1 ? base : base.slice(0, hostsEnd);
  return `${hosts}/${dbName}${query ? `?${query}` : ""}`;
}
