import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { featureOf, importCycles, reachableFrom, readImportGraph } from "../support/import-graph.ts";

/**
 * The layering of docs/architecture.md ("Feature faces", "Dependencies flow one way"), read from the
 * import statements of packages/auth-core/src. Each rule lists the exceptions still known to break
 * it; a list may only shrink: the test fails on a violation not listed AND on a listed one that no
 * longer occurs (then delete its line).
 */
const SOURCE_ROOT = fileURLToPath(new URL("../../packages/auth-core/src", import.meta.url));
const graph = readImportGraph(SOURCE_ROOT);

/** Every `file -> target` edge of the graph that `breaks` says is a violation. */
function violations(breaks: (file: string, target: string) => boolean): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) if (breaks(file, target)) found.push(`${file} -> ${target}`);
  }
  return found;
}

function expectOnlyKnown(found: readonly string[], known: readonly string[]): void {
  expect({
    newViolations: found.filter((edge) => !known.includes(edge)),
    fixedButStillListed: known.filter((edge) => !found.includes(edge)),
  }).toEqual({ newViolations: [], fixedButStillListed: [] });
}

/** Layers below the features: they are handed what they need (create-auth.ts), never import it. */
const BELOW_FEATURES = ["http/", "crypto/", "errors/", "db/", "mail/", "config/", "contracts/"];

/** What a shared file directly in features/ may import of a feature: its face, or (registry.ts) its endpoint list. */
function isFaceOrEndpointList(file: string, target: string, feature: string): boolean {
  if (target === `features/${feature}/index.ts`) return true;
  return file === "features/registry.ts" && target === `features/${feature}/endpoints/index.ts`;
}

describe("layering of packages/auth-core/src", () => {
  it("reads the sources (a guard against a wrong root)", () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.has("create-auth.ts")).toBe(true);
  });

  it("has no import cycle", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("http/, crypto/, errors/, db/, mail/, config/ and contracts/ import no feature", () => {
    const found = violations(
      (file, target) =>
        BELOW_FEATURES.some((layer) => file.startsWith(layer)) && target.startsWith("features/"),
    );
    expectOnlyKnown(found, [
      // The `socialProviders` option's schema is the social feature's provider option types (230
      // lines, with the providers' own types): moving them to config/ is still to do.
      "config/options.ts -> features/social/providers/types.ts",
    ]);
  });

  it("a feature uses another only through that feature's index.ts (its face)", () => {
    const found = violations((file, target) => {
      const from = featureOf(file);
      const to = featureOf(target);
      if (to === null) return false;
      // The shared files directly in features/ (hooks, mail-dispatch, cleanup…) use faces too.
      if (from === null) return file.startsWith("features/") && !isFaceOrEndpointList(file, target, to);
      return from !== to && target !== `features/${to}/index.ts`;
    });
    expectOnlyKnown(found, []);
  });

  it("no feature imports another feature's store.ts", () => {
    const found = violations((file, target) => {
      const to = featureOf(target);
      return to !== null && target.endsWith("/store.ts") && featureOf(file) !== to;
    });
    expectOnlyKnown(found, []);
  });

  it("i18n/ (@tessera/auth-core/i18n) reaches only its own data and the error catalogue, so a browser can bundle it", () => {
    const reached = [...reachableFrom(graph, "i18n/index.ts")];
    expect(
      reached.filter((module) => !module.startsWith("i18n/") && module !== "errors/catalogue.ts"),
    ).toEqual([]);
  });

  it('only db/ and */store.ts import "mongodb"', () => {
    const found = violations(
      (file, target) => target === "mongodb" && !file.startsWith("db/") && !file.endsWith("/store.ts"),
    );
    expectOnlyKnown(found, []);
  });
});
