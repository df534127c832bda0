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
      const quiet = ["commander.helpDisplayed", "commander.version"];
      if (quiet.includes(error.code)) return EXIT.ok;
      // No command given: commander has printed the help on stderr; a usage error (exit 2), so a
      // script's `tessera --json` with its command missing is not read as success with no data.
      if (error.code === "commander.help") {
        if (json) writeJsonError("USAGE", "no command given (--help lists the commands)");
        return EXIT.usage;
      }
      if (error.code === "commander.executeSubCommandAsync") return EXIT.failure;
      // Commander has printed the message on stderr; a script reading --json gets it as data too.
      if (json) writeJsonError("USAGE", error.message.replace(/^error: /, ""));
      return EXIT.usage;
    }
    const known = toKnownError(error);
    if (!known) {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      return EXIT.failure;
    }
    if (known.reported) return known.exitCode;
    if (json) writeJsonError(known.code, known.message);
    process.stderr.write(`error: ${known.message}\n`);
    return known.exitCode;
  }
}

function writeJsonError(code: string, message: string): void {
  process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
}
