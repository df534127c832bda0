import { existsSync } from "node:fs";
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

describe("the CLI's help points at documents that exist", () => {
  it("the global --json line names docs/cli.md, where the shapes are", () => {
    // Commander wraps a description at the terminal's width: read it as one line.
    const help = createProgram().helpInformation().replace(/\s+/g, " ");
    expect(help).toContain("--json print one JSON document on stdout (its shapes: docs/cli.md)");
  });

  it("no command's help sends the reader to the README (the CLI reference is docs/cli.md)", () => {
    const naming = helpTexts(createProgram())
      .filter(([, text]) => /README/.test(text))
      .map(([path]) => path);
    expect(naming).toEqual([]);
  });

  it("every docs/ file a help text names is in the repository", () => {
    const named = new Set(
      helpTexts(createProgram()).flatMap(([, text]) => text.match(/docs\/[\w./-]+\.md/g) ?? []),
    );
    expect([...named].filter((path) => !existsSync(join(REPO, path)))).toEqual([]);
    expect(named.has("docs/cli.md")).toBe(true);
  });
});
