import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectOnlyKnown, importCycles, readImportGraph, violationsIn } from "#test/import-graph.ts";

/**
 * The layering of packages/cli/src, read from its import statements. The CLI has three layers:
 * - the entry: bin.ts → main.ts (the one top-level catch) → program.ts (the command tree), and
 *   index.ts (the package's API: the actions);
 * - the commands: commands/<name>.ts, one a command, each a commander `Command` and its actions;
 * - the kit the commands share: kit.ts, io.ts, errors.ts, table.ts, progress.ts, connection.ts,
 *   operator.ts and the rest directly in src/.
 * Dependencies flow one way, entry → commands → kit: a command uses the kit, never another command;
 * the kit never reaches up. Each rule lists the exceptions still known to break it; a list may only
 * shrink (expectOnlyKnown).
 */
const SOURCE_ROOT = fileURLToPath(new URL("../../packages/cli/src", import.meta.url));
const graph = readImportGraph(SOURCE_ROOT);
const violations = (breaks: (file: string, target: string) => boolean) => violationsIn(graph, breaks);

const ENTRY = ["bin.ts", "main.ts", "program.ts", "index.ts"];
const isCommand = (file: string) => file.startsWith("commands/");
const isKit = (file: string) => !isCommand(file) && !ENTRY.includes(file) && graph.has(file);

describe("layering of packages/cli/src", () => {
  it("reads the sources (a guard against a wrong root)", () => {
    expect([...graph.keys()].filter(isCommand).length).toBeGreaterThan(10);
    expect(graph.has("kit.ts")).toBe(true);
  });

  it("has no import cycle", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("a command imports no other command and nothing of the entry", () => {
    const found = violations(
      (file, target) => isCommand(file) && (isCommand(target) || ENTRY.includes(target)) && target !== file,
    );
    expectOnlyKnown(found, []);
  });

  it("the kit imports no command and nothing of the entry", () => {
    const found = violations((file, target) => isKit(file) && (isCommand(target) || ENTRY.includes(target)));
    expectOnlyKnown(found, []);
  });

  it("only program.ts (the command tree) and index.ts (the API) import the commands", () => {
    const found = violations(
      (file, target) => isCommand(target) && !isCommand(file) && file !== "program.ts" && file !== "index.ts",
    );
    expectOnlyKnown(found, []);
  });

  it("errors.ts, io.ts and version.ts import nothing of the package: every other file may use them", () => {
    for (const base of ["errors.ts", "io.ts", "version.ts"]) {
      expect({ base, imports: graph.get(base)!.filter((target) => graph.has(target)) }).toEqual({
        base,
        imports: [],
      });
    }
  });

  it("the core is reached through its package exports, never by a path into its sources", () => {
    const found = violations((_file, target) => target.startsWith("..") || target.includes("auth-core/src"));
    expectOnlyKnown(found, []);
  });

  it("only connection.ts opens a database (the embedded one and the app's options module)", () => {
    const found = violations(
      (file, target) =>
        (target === "@tessera/dev-db" || target === "tsx/esm/api") && file !== "connection.ts",
    );
    expectOnlyKnown(found, []);
  });

  // Collections are written through the core's owners (docs/architecture.md), not by the driver.
  it('no file imports the driver ("mongodb") but the importers still to move onto the owners', () => {
    const found = violations((_file, target) => target === "mongodb").map((edge) => edge.split(" -> ")[0]!);
    expectOnlyKnown(found, [
      "commands/import.ts",
      "import-better-auth.ts",
      "import-writer.ts",
      "importers.ts",
    ]);
  });

  // `tessera --help` and every command without a terminal display load no React (bench/cli-help.ts).
  it("Ink and React are imported only by progress-view.ts, which progress.ts loads with import()", () => {
    const found = violations(
      (file, target) => ["ink", "@inkjs/ui", "react"].includes(target) && file !== "progress-view.ts",
    );
    expectOnlyKnown(found, []);
    const viewers = violations((_file, target) => target === "progress-view.ts").map(
      (edge) => edge.split(" -> ")[0],
    );
    expect(viewers).toEqual(["progress.ts"]);
    const progress = readFileSync(join(SOURCE_ROOT, "progress.ts"), "utf8");
    const staticValueImports = progress.match(/^import\s+(?!type\s)[^;]*"\.\/progress-view\.ts"/gm) ?? [];
    expect(staticValueImports).toEqual([]);
  });
});
