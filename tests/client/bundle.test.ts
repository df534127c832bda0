import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * The client as a browser app bundles it: esbuild for the browser, from the package's entries. The
 * bundle must carry no server code — no `node:` module, no `mongodb`, nothing outside client/ and
 * react/ (contracts and the catalogue are imported as types only, so no zod either) — and the client
 * must not touch `window` or `document` when imported.
 */
const SOURCE = fileURLToPath(new URL("../../packages/auth-core/src/", import.meta.url));

async function bundle(entry: string, external: string[] = []) {
  const result = await build({
    entryPoints: [SOURCE + entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    metafile: true,
    external,
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs);
  const imports = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.map((i) => i.path),
  );
  return { inputs, imports, code: result.outputFiles[0]!.text };
}

/** The role rules of `@tessera/auth-core/roles` (checkRolePermission), pure like the client itself. */
const ROLE_RULES = [
  "packages/auth-core/src/contracts/role-list.ts",
  "packages/auth-core/src/features/organization/members/rules.ts",
];

describe("the browser bundle", () => {
  it("of @tessera/auth-core/client holds only client/ sources and imports nothing", async () => {
    const { inputs, imports, code } = await bundle("client/index.ts");
    expect(inputs.filter((input) => !input.includes("packages/auth-core/src/client/"))).toEqual(ROLE_RULES);
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/node:|mongodb/);
  });

  it("of @tessera/auth-core/react holds only client/ and react/ sources and imports only react", async () => {
    const { inputs, imports } = await bundle("react/index.ts", ["react"]);
    expect(inputs.filter((input) => !/packages\/auth-core\/src\/(client|react)\//.test(input))).toEqual(
      ROLE_RULES,
    );
    expect([...new Set(imports)]).toEqual(["react"]);
  });

  it("of @tessera/auth-core/roles holds only the role rules and imports nothing (no zod, no server code)", async () => {
    const { inputs, imports, code } = await bundle("roles.ts");
    expect(inputs.map((input) => input.replace(/^.*packages\/auth-core\/src\//, "")).sort()).toEqual([
      "contracts/role-list.ts",
      "features/organization/members/rules.ts",
      "roles.ts",
    ]);
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/node:|mongodb/);
  });

  it("can be imported, and a client created, with no window or document", async () => {
    expect("window" in globalThis || "document" in globalThis).toBe(false);
    const { code } = await bundle("client/index.ts");
    const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as {
      createAuthClient: (options: object) => { $store: { session: { get(): unknown } } };
    };
    const client = module.createAuthClient({ baseURL: "http://127.0.0.1:9" });
    expect(client.$store.session.get()).toEqual({
      data: null,
      error: null,
      isPending: true,
      isRefetching: false,
    });
  });
});
