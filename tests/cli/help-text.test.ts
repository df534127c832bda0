import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../packages/cli/src/program.ts";

/** `tessera --help` and every subcommand's, as a person reads them. */
const REPO = join(import.meta.dirname, "..", "..");

interface CommandTree {
  name(): string;
  helpInformation(): string;
  commands: readonly CommandTree[];
}

function helpTexts(command: CommandTree, path = "tessera"): [string, string][] {
  return [
    [path, command.helpInformation()],
    ...command.commands.flatMap((sub) => helpTexts(sub, `${path} ${sub.name()}`)),
  ];
}

describe("the CLI's help stands on its own for an installed user", () => {
  it("the global --json line says what a document is, and what an error looks like", () => {
    // Commander wraps a description at the terminal's width: read it as one line.
    const help = createProgram().helpInformation().replace(/\s+/g, " ");
    expect(help).toContain(
      '--json print one JSON document on stdout (an error: { "error": { code, message } })',
    );
  });

  it("no command's help sends the reader to the README", () => {
    const naming = helpTexts(createProgram())
      .filter(([, text]) => /README/.test(text))
      .map(([path]) => path);
    expect(naming).toEqual([]);
  });

  it("no help text names a docs/ file: the package ships only bin/ and dist/ (package.json files)", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "packages", "cli", "package.json"), "utf8")) as {
      files: string[];
    };
    expect(pkg.files.some((entry) => entry.startsWith("docs"))).toBe(false);
    const naming = helpTexts(createProgram())
      .filter(([, text]) => /docs\/[\w./-]+\.md/.test(text))
      .map(([path]) => path);
    expect(naming).toEqual([]);
  });
});
