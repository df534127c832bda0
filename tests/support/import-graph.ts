import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect } from "vitest";

/**
 * The module graph of one package's sources, read from their import and export-from statements
 * (static and `import("…")`, type-only included: a type import still couples two modules for a
 * reader). Keys and targets are paths relative to the source root, e.g. `features/session/store.ts`;
 * a package import is kept as its bare name (`mongodb`, `node:crypto`).
 */
export type ImportGraph = Map<string, string[]>;

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s+"([^"]+)"/g;

function listSources(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listSources(root, path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) files.push(relative(root, path));
  }
  return files;
}

export function readImportGraph(sourceRoot: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of listSources(sourceRoot).sort()) {
    const text = readFileSync(join(sourceRoot, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      targets.add(
        specifier.startsWith(".")
          ? relative(sourceRoot, resolve(sourceRoot, dirname(file), specifier))
          : specifier,
      );
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** `features/<name>/…` → `<name>`; null outside features/ (and for the shared files directly in it). */
export function featureOf(file: string): string | null {
  const parts = file.split("/");
  return parts[0] === "features" && parts.length > 2 ? parts[1]! : null;
}

/** Every module reachable from `start` (itself included), package imports included as bare names. */
export function reachableFrom(graph: ImportGraph, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const target of graph.get(file) ?? []) stack.push(target);
  }
  return seen;
}

/** The strongly connected components with more than one module: each is an import cycle. */
export function importCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    indexOf.set(file, index);
    low.set(file, index);
    index++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!indexOf.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, indexOf.get(target)!));
      }
    }
    if (low.get(file) === indexOf.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!indexOf.has(file)) visit(file);
  return cycles;
}

/** Every `file -> target` edge of the graph that `breaks` says is a violation. */
export function violationsIn(
  graph: ImportGraph,
  breaks: (file: string, target: string) => boolean,
): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) if (breaks(file, target)) found.push(`${file} -> ${target}`);
  }
  return found;
}

/**
 * A rule's known exceptions may only shrink: fails on a violation not listed AND on a listed one
 * that no longer occurs (then delete its line).
 */
export function expectOnlyKnown(found: readonly string[], known: readonly string[]): void {
  expect({
    newViolations: found.filter((edge) => !known.includes(edge)),
    fixedButStillListed: known.filter((edge) => !found.includes(edge)),
  }).toEqual({ newViolations: [], fixedButStillListed: [] });
}
