import { PassThrough } from "node:stream";
import type { Io } from "../../packages/cli/src/io.ts";

export interface CapturedIo {
  io: Io;
  /** What the command wrote to stdout (data) and stderr (progress, prompts, warnings) so far. */
  stdout(): string;
  stderr(): string;
}

/**
 * The CLI's Io for a test: stdout and stderr captured as text, stdin ended (unless given), no
 * terminal and no colour unless `overrides` say otherwise. The one capture of the CLI tests
 * (tests/cli/run-context.ts builds its RunContext on it).
 */
export function captureIo(overrides: Partial<Io> = {}): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const stdin = overrides.stdin ?? new PassThrough().end();
  const io: Io = {
    interactive: false,
    stdoutIsTTY: false,
    color: false,
    env: {},
    cwd: process.cwd(),
    ...overrides,
    stdin,
    stdout,
    stderr,
  };
  return { io, stdout: () => out, stderr: () => err };
}
