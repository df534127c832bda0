import type { PassThrough } from "node:stream";
import { inject } from "vitest";
import { captureIo } from "#test/captured-io.ts";
import { TEST_SECRET } from "#test/test-auth.ts";
import { EXIT, toKnownError } from "../../packages/cli/src/errors.ts";
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
  const { io, stdout, stderr } = captureIo({
    ...(options.stdin ? { stdin: options.stdin } : {}),
    interactive: options.interactive ?? false,
    env: { TESSERA_SECRET: TEST_SECRET, TESSERA_OPERATOR: "tester", ...options.env },
  });
  return {
    io,
    json: options.json ?? false,
    connection: { uri: inject("mongoUri"), db: dbName },
    stdout,
    stderr,
  };
}

/** How a command's action ended: [exit code, catalogue or CLI code], as the binary would exit. */
export async function exitOf(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (error) {
    const known = toKnownError(error);
    if (!known) throw error;
    return [known.exitCode, known.code];
  }
  return [EXIT.ok, "OK"];
}
