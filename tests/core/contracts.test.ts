import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reachableFrom, readImportGraph } from "#test/import-graph.ts";
import { contracts } from "../../packages/auth-core/src/contracts/index.ts";
import { coreEndpoints } from "../../packages/auth-core/src/features/registry.ts";

/**
 * One registry of endpoint contracts; the server pairs each with exactly one handler (issue "An
 * installable core with a clear inside" §2). That every answer matches its contract is checked on
 * every call of the test suite (`advanced.checkResponses`, tests/support/test-auth.ts).
 */
const SOURCE_ROOT = join(import.meta.dirname, "..", "..", "packages", "auth-core", "src");

describe("endpoint contracts", () => {
  it("every endpoint has a contract from the registry, and every contract exactly one endpoint", () => {
    const registered = new Set(contracts);
    expect(coreEndpoints.filter((endpoint) => !endpoint.contract).map((e) => e.name)).toEqual([]);
    expect(
      coreEndpoints.filter((endpoint) => !registered.has(endpoint.contract!)).map((e) => e.name),
    ).toEqual([]);
    const paired = coreEndpoints.map((endpoint) => endpoint.contract);
    expect(contracts.filter((contract) => !paired.includes(contract)).map((c) => c.name)).toEqual([]);
    expect(new Set(paired).size).toBe(paired.length);
  });

  it("names and method–path pairs are unique", () => {
    const names = contracts.map((contract) => contract.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = contracts.flatMap((contract) =>
      (typeof contract.method === "string" ? [contract.method] : contract.method).map(
        (method) => `${method} ${contract.path}`,
      ),
    );
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("every contract has a summary and tags", () => {
    const incomplete = contracts.filter((c) => c.summary.trim() === "" || c.tags.length === 0);
    expect(incomplete.map((c) => c.name)).toEqual([]);
  });

  it("contract modules import nothing but zod and each other's schemas (a browser can bundle them)", () => {
    const graph = readImportGraph(SOURCE_ROOT);
    const reached = [...reachableFrom(graph, "contracts/index.ts")];
    expect(reached.filter((module) => !module.endsWith(".ts") && module !== "zod")).toEqual([]);
    // Server layers never come in, even through a module that only imports zod today.
    expect(
      reached.filter((module) => /^(db|http|server|mail|crypto)\/|\/(service|store)\.ts$/.test(module)),
    ).toEqual([]);
  });
});
