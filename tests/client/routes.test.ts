import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTES, type RouteTable } from "../../packages/auth-core/src/client/routes.ts";
import { type AnyContract, contracts } from "../../packages/auth-core/src/contracts/index.ts";

/**
 * The client's route table (client/routes.ts) and its types (client/api.ts) against the contract
 * registry: every method calls its contract's method and path, is typed from that same contract,
 * and every endpoint a browser may call has a method.
 */

/** Endpoints a browser reaches by navigation, not by a client call: a page, the provider's return, mailed links. */
const NOT_CLIENT_METHODS = ["ok", "error", "callbackOAuth", "resetPasswordCallback"];

function leaves(table: RouteTable, prefix = ""): { name: string; method: string; path: string }[] {
  return Object.entries(table).flatMap(([name, route]) =>
    typeof route === "string"
      ? [{ name: prefix + name, method: route[0] === "G" ? "GET" : "POST", path: route.slice(1) }]
      : leaves(route, `${prefix}${name}.`),
  );
}

const routes = leaves(ROUTES);
const methodsOf = (method: string | readonly string[]) => (typeof method === "string" ? [method] : method);

describe("the client's methods", () => {
  it("each call an endpoint's method and path, never a server-only one", () => {
    for (const route of routes) {
      const contract = contracts.find(
        (c) => c.path === route.path && methodsOf(c.method).includes(route.method),
      );
      expect(contract, `${route.name}: ${route.method} ${route.path}`).toBeDefined();
      expect(contract!.auth, route.name).not.toBe("server-only");
    }
  });

  it("cover every endpoint a browser may call", () => {
    const covered = new Set(routes.map((route) => route.path));
    const missing = contracts
      .filter((c) => c.auth !== "server-only" && !NOT_CLIENT_METHODS.includes(c.name) && !covered.has(c.path))
      .map((c) => c.name);
    expect(missing).toEqual([]);
  });

  it("are typed (client/api.ts) from the contract they call, in the route table's order", async () => {
    const exports = new Map<string, AnyContract>();
    const folder = new URL("../../packages/auth-core/src/contracts/", import.meta.url);
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
      const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module))
        if (name.endsWith("Contract")) exports.set(name, value as AnyContract);
    }
    const source = readFileSync(
      new URL("../../packages/auth-core/src/client/api.ts", import.meta.url),
      "utf8",
    );
    const typed = [...source.matchAll(/(Post|Get)Call<typeof \w+\.(\w+Contract)>/g)].map((match) => ({
      method: match[1] === "Get" ? "GET" : "POST",
      contract: exports.get(match[2]!),
      exportName: match[2]!,
    }));
    expect(typed.length).toBe(routes.length);
    routes.forEach((route, index) => {
      const { method, contract, exportName } = typed[index]!;
      expect(contract, `${route.name} typed from ${exportName}`).toBeDefined();
      expect({ name: route.name, method, path: contract!.path }).toEqual({
        name: route.name,
        method: route.method,
        path: route.path,
      });
    });
  });
});
