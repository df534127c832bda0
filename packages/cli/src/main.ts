import { CommanderError } from "commander";
import { EXIT, toKnownError } from "./errors.ts";
import { createProgram } from "./program.ts";

/**
 * The one top-level handler: usage errors exit 2 (commander has printed them), known errors print
 * `error: <message>` (or `{ "error": { code, message } }` with --json) without a stack, anything
 * else is a bug and prints its stack.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  const json = argv.includes("--json");
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      const quiet = ["commander.helpDisplayed", "commander.help", "commander.version"];
      if (quiet.includes(error.code)) return EXIT.ok;
      return error.code === "commander.executeSubCommandAsync" ? EXIT.failure : EXIT.usage;
    }
    const known = toKnownError(error);
    if (!known) {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      return EXIT.failure;
    }
    if (known.reported) return known.exitCode;
    if (json)
      process.stdout.write(`${JSON.stringify({ error: { code: known.code, message: known.message } })}\n`);
    process.stderr.write(`error: ${known.message}\n`);
    return known.exitCode;
  }
}
