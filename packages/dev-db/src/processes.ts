import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer } from "node:net";

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunCommandOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** SIGKILL the command after this long; the result then has `timedOut: true`. */
  timeoutMs?: number;
}

/** Keeps only the end of long outputs: error messages need the last lines, not megabytes of build log. */
const OUTPUT_TAIL_CHARS = 8_000;

export function keepTail(text: string, limit = OUTPUT_TAIL_CHARS): string {
  return text.length <= limit ? text : `…${text.slice(-limit)}`;
}

/** Collects a stream's text, bounded so a chatty process cannot grow our memory without limit. */
export function collectOutput(stream: NodeJS.ReadableStream | null): () => string {
  let text = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    text = keepTail(text + chunk, OUTPUT_TAIL_CHARS * 2);
  });
  return () => keepTail(text);
}

/** Runs a command to completion; rejects only when it cannot be spawned (e.g. ENOENT). */
export function runCommand(
  command: string,
  args: string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout = collectOutput(child.stdout);
    const stderr = collectOutput(child.stderr);
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: stdout(), stderr: stderr(), timedOut });
    });
  });
}

export function describeCommandFailure(command: string, args: string[], result: CommandResult): string {
  const status = result.timedOut
    ? "timed out"
    : result.signal
      ? `was killed by ${result.signal}`
      : `exited with code ${result.code}`;
  const output = [result.stdout.trim(), result.stderr.trim()].filter(Boolean).join("\n");
  return `\`${[command, ...args].join(" ")}\` ${status}${output ? `:\n${output}` : " without output"}`;
}

/** Asks the OS for a currently unused port; the caller must tolerate losing a race for it. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("could not determine a free port"))));
    });
  });
}

/** Whether 127.0.0.1:port can be listened on now (another process may take it a moment later). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Resolves once a TCP connection to 127.0.0.1:port succeeds; rejects at once when it is refused. */
export function connectOnce(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
    socket.once("error", (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Gives the process `graceMs` to shut down cleanly (FerretDB flushes SQLite), then insists. */
export async function terminateProcess(child: ChildProcess, graceMs: number): Promise<void> {
  // No pid means spawning failed: there is nothing to stop and no "exit" event will ever come.
  if (child.pid === undefined || hasExited(child)) return;
  const exited = waitForExit(child);
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"grace-over">((resolve) => {
    timer = setTimeout(() => resolve("grace-over"), graceMs);
  });
  const outcome = await Promise.race([exited.then(() => "exited" as const), graceOver]);
  clearTimeout(timer);
  if (outcome === "grace-over") {
    child.kill("SIGKILL");
    await exited;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
