import { type ChildProcess, spawn } from "node:child_process";
import { SERVER_BUNDLE, SERVER_ENV, SERVER_NODE_FLAGS } from "../packages/auth-core/src/server/build.ts";

/** A running bundled server (what `pnpm serve` runs), started by the bench. */
export interface BundledServer {
  child: ChildProcess;
  /** Resolves with the announced API URL; rejects if the process exits first or takes too long. */
  listening: Promise<string>;
  exited: Promise<number | string>;
  /** SIGKILL if still running (cleanup after a failed bench). */
  kill(): void;
}

/**
 * `node <flags> dist/server/main.mjs` with exactly `env` (plus PATH, HOME and SERVER_ENV), as the
 * `serve` script runs it — not through tsx, whose loader thread would count in the server's RSS.
 * The bundle must have been built (`buildServer`).
 */
export function spawnBundledServer(env: Record<string, string>, timeoutMs = 30_000): BundledServer {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...SERVER_ENV, ...env },
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
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not listening after ${timeoutMs} ms\n${err}`)),
      timeoutMs,
    );
    const onData = () => {
      const url = out.match(/^Tessera listening on (http:\/\/\S+)$/m)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve(url);
    };
    child.stdout?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening\n${err}`));
    });
  });
  listening.catch(() => {});
  return {
    child,
    listening,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
