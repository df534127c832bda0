import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * The client as a browser app bundles it: esbuild for the browser, from the package's entries. The
 * bundle must carry no server code — no `node:` module, no `mongodb`, nothing outside client/ and
 * react/ (contracts and the catalogue are imported as types only, so no zod either) — and the client
 * must not touch `window` or `document` when imported. The passkey ceremonies and
 * @simplewebauthn/browser are imported only when a passkey method runs: with code splitting (as
 * Vite and other app bundlers do) they are chunks of their own, outside what a page loads first.
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

/** The files of the chunks split off: what a passkey method loads when it first runs. */
const PASSKEY_CHUNKS =
  /packages\/auth-core\/src\/client\/passkey-(ceremonies|errors)\.ts$|@simplewebauthn\/browser\//;

/**
 * An app's page bundled with code splitting, React left external: what it loads first (the entry
 * chunk) and what only a passkey method loads, with their sizes gzipped (level 9, as bench/client-bundle.ts).
 */
async function splitBundle(code: string) {
  const result = await build({
    stdin: { contents: code, resolveDir: SOURCE, loader: "ts", sourcefile: "page.ts" },
    bundle: true,
    splitting: true,
    outdir: "/split",
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    metafile: true,
    external: ["react", "react-dom"],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const gzipped = (path: string) =>
    gzipSync(result.outputFiles.find((file) => file.path.endsWith(path.replace(/^.*\//, "")))!.contents, {
      level: 9,
    }).byteLength;
  const outputs = Object.entries(result.metafile.outputs).map(([path, output]) => ({
    path,
    entry: output.entryPoint !== undefined,
    inputs: Object.keys(output.inputs),
    dynamicImports: output.imports.filter((i) => i.kind === "dynamic-import").length,
    gzipped: gzipped(path),
  }));
  return { entry: outputs.find((output) => output.entry)!, lazy: outputs.filter((output) => !output.entry) };
}

/** The role rules of `@tessera/auth-core/roles` (checkRolePermission), pure like the client itself. */
const ROLE_RULES = [
  "packages/auth-core/src/contracts/role-list.ts",
  "packages/auth-core/src/features/organization/members/rules.ts",
];

describe("the browser bundle", () => {
  it("of @tessera/auth-core/client holds only client/ sources (and, for passkeys, @simplewebauthn/browser) and imports nothing", async () => {
    const { inputs, imports, code } = await bundle("client/index.ts");
    const outside = inputs.filter((input) => !input.includes("packages/auth-core/src/client/"));
    expect(outside.filter((input) => !input.includes("@simplewebauthn/browser/"))).toEqual(ROLE_RULES);
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/node:|mongodb/);
  });

  it("of @tessera/auth-core/react holds only client/ and react/ sources and imports only react", async () => {
    const { inputs, imports } = await bundle("react/index.ts", ["react"]);
    const outside = inputs.filter((input) => !/packages\/auth-core\/src\/(client|react)\//.test(input));
    expect(outside.filter((input) => !input.includes("@simplewebauthn/browser/"))).toEqual(ROLE_RULES);
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

  /**
   * Budgets, gzipped: a page that signs in by password and shows the session. Before passkeys the
   * React page's entry was 4,373 bytes (client alone 4,118); the passkey methods add their lazy
   * loaders (~0.3 KiB). The ceremonies and the library are ~1.3 + ~2.9 KiB, loaded on first use.
   */
  it.each([
    ["client", "./client/index.ts", "", 5120],
    ["react", "./react/index.ts", "export const useIt = () => client.useSession();", 5376],
  ])(
    "a page with the %s entry's sign-in and session loads the passkey code only on use, within budget",
    async (_name, entry, extra, budget) => {
      const { entry: first, lazy } = await splitBundle(`import { createAuthClient } from "${entry}";
const client = createAuthClient({ baseURL: "https://auth.example.com" });
export const signIn = () => client.signIn.email({ email: "ada@example.com", password: "correct horse" });
${extra}`);
      expect(first.inputs.filter((input) => PASSKEY_CHUNKS.test(input))).toEqual([]);
      expect(first.dynamicImports).toBe(2);
      expect(lazy.flatMap((chunk) => chunk.inputs).every((input) => PASSKEY_CHUNKS.test(input))).toBe(true);
      expect(first.gzipped).toBeLessThanOrEqual(budget);
      expect(lazy.reduce((sum, chunk) => sum + chunk.gzipped, 0)).toBeLessThanOrEqual(5120);
    },
  );
});
