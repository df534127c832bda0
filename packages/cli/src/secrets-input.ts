import { CliError, EXIT, usageError } from "./errors.ts";
import type { RunContext } from "./kit.ts";

export interface PasswordOptions {
  password?: string | undefined;
  passwordStdin?: boolean | undefined;
}

/**
 * A password from --password-stdin (first line of stdin), --password, or a hidden prompt on a
 * terminal; null when none is given and `required` is false.
 */
export async function readPassword(
  run: RunContext,
  options: PasswordOptions,
  required: boolean,
): Promise<string | null> {
  if (options.passwordStdin) {
    let text = "";
    for await (const chunk of run.io.stdin) text += String(chunk);
    const line = text.split(/\r?\n/)[0] ?? "";
    if (line === "") throw usageError("--password-stdin: stdin is empty");
    return line;
  }
  if (options.password !== undefined) return options.password;
  if (!required) return null;
  if (!run.io.interactive || run.json)
    throw usageError("a password is needed: --password-stdin or --password");
  const prompts = await import("@clack/prompts");
  const answer = await prompts.password({
    message: "New password",
    input: run.io.stdin,
    output: run.io.stderr,
  });
  if (prompts.isCancel(answer)) throw new CliError("CANCELLED", "cancelled", EXIT.failure);
  return answer;
}
