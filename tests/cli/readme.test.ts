import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../packages/cli/src/program.ts";
import { VERSION } from "../../packages/cli/src/version.ts";

/** docs/cli.md's CLI section names every command, one line each; the version matches package.json. */
const CLI_DOC = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");

interface CommandTree {
  name(): string;
  commands: readonly CommandTree[];
}

function leaves(command: CommandTree, prefix: string[] = []): string[] {
  const subs = command.commands.filter((sub) => sub.name() !== "help");
  if (subs.length === 0) return [prefix.join(" ")];
  return subs.flatMap((sub) => leaves(sub, [...prefix, sub.name()]));
}

describe("tessera's documentation", () => {
  it("docs/cli.md's CLI section has one table line per command", () => {
    const start = CLI_DOC.indexOf("\n## CLI\n");
    expect(start).toBeGreaterThan(0);
    const end = CLI_DOC.indexOf("\n## ", start + 1);
    const section = CLI_DOC.slice(start, end < 0 ? undefined : end);
    const rows = section.split("\n").filter((line) => line.startsWith("| `tessera "));
    const documented = rows.map((row) => /^\| `tessera ([a-z-]+(?: [a-z][a-z-]*){0,2})/.exec(row)?.[1]);
    expect(documented.sort()).toEqual(leaves(createProgram()).sort());
  });

  it("the version is package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../packages/cli/package.json", import.meta.url), "utf8"));
    expect(VERSION).toBe(pkg.version);
  });
});
