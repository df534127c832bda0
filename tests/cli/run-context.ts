import { PassThrough } from "node:stream";
import { inject } from "vitest";
import { TEST_SECRET } from "#test/test-auth.ts";
import type { Io } from "../../packages/cli/src/io.ts";
import type { RunContext } from "../../packages/cli/src/kit.ts";

export interface CapturedRun extends RunContext {
  stdout(): string;
  stderr(): string;
}

/**
 * A RunContext for calling action functions in the test process: the test database `dbName`, no
 * terminal (unless `interactive`), output captured, the operator named `tester`.
 */
export function testRun(
  dbName: string,
  options: { json?: boolean; interactive?: boolean; stdin?: PassThrough; env?: NodeJS.ProcessEnv } = {},
): CapturedRun {
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
  const stdin = options.stdin ?? new PassThrough();
  if (!options.stdin) stdin.end();
  const io: Io = {
    stdin,
    stdout,
    stderr,
    interactive: options.interactive ?? false,
    stdoutIsTTY: false,
    color: false,
    env: { TESSERA_SECRET: TEST_SECRET, TESSERA_OPERATOR: "tester", ...options.env },
    cwd: process.cwd(),
  };
  return {
    io,
    json: options.json ?? false,
    connection: { uri: inject("mongoUri"), db: dbName },
    stdout: () => out,
    stderr: () => err,
  };
}
