import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { initAction, printInit } from "../../packages/cli/src/init-app.ts";
import { checkoutRoot, packWorkspace } from "../../packages/cli/src/pack-workspace.ts";
import { testRun } from "./run-context.ts";

/** `tessera init` in a Remix app the user already has (issue 29 §1; h10's findings 1, 2 and 12). */
let root: string;
// Packing builds a package whose dist/ is older than its sources: minutes on a busy machine.
vi.setConfig({ testTimeout: 600_000 });
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tessera-init-existing-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function run() {
  const context = testRun("unused");
  return { ...context, io: { ...context.io, cwd: root } };
}

/** A Remix app as `create-remix` makes it, with the scripts given and a .gitignore of the user's. */
async function remixApp(name: string, scripts: Record<string, string>, gitignore?: string): Promise<string> {
  const app = join(root, name);
  await mkdir(app, { recursive: true });
  const pkg = {
    name,
    private: true,
    type: "module",
    scripts: { build: "remix vite:build", ...scripts },
    dependencies: {
      "@remix-run/node": "^2.17.5",
      "@remix-run/react": "^2.17.5",
      "@remix-run/serve": "^2.17.5",
    },
    devDependencies: { "@remix-run/dev": "^2.17.5", vite: "^6.3.0" },
  };
  await writeFile(join(app, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  if (gitignore !== undefined) await writeFile(join(app, ".gitignore"), gitignore);
  return app;
}

const packageJson = async (app: string) => JSON.parse(await readFile(join(app, "package.json"), "utf8"));

describe("tessera init in an existing Remix app", () => {
  it("switches Remix's stock dev/start scripts to the template's server.mjs, which it writes with its dependencies", async () => {
    const app = await remixApp("stock", {
      dev: "remix vite:dev",
      start: "remix-serve ./build/server/index.js",
    });
    const context = run();
    const result = await initAction(context, "stock", { yes: true });
    printInit(context, result);
    const pkg = await packageJson(app);
    expect(pkg.scripts).toEqual({
      build: "remix vite:build",
      dev: "node server.mjs",
      start: "NODE_ENV=production node server.mjs",
    });
    expect(pkg.dependencies).toMatchObject({ express: "^4.21.2", "@remix-run/express": "^2.17.5" });
    const template = join(import.meta.dirname, "..", "..", "templates", "remix-app");
    for (const file of ["server.mjs", "server-listen.mjs", "app/routes/cross-site-refused.tsx"])
      expect(await readFile(join(app, file), "utf8")).toBe(await readFile(join(template, file), "utf8"));
    expect(context.stdout()).toContain('set       "dev", "start" in package.json to server.mjs\n');
    expect(context.stdout()).not.toContain("note");
  });

  it("leaves scripts of the user's own and prints the two lines to change and why", async () => {
    const app = await remixApp("custom", {
      dev: "remix vite:dev --port 4000",
      start: "node ./my-server.js",
    });
    const context = run();
    printInit(context, await initAction(context, "custom", { yes: true }));
    expect((await packageJson(app)).scripts).toEqual({
      build: "remix vite:build",
      dev: "remix vite:dev --port 4000",
      start: "node ./my-server.js",
    });
    expect(context.stdout()).toContain(
      [
        "note      your package.json scripts are your own, so init left them; to give Tessera each visitor's address and the real port, change:",
        '            "dev": "remix vite:dev --port 4000"  →  "node server.mjs"',
        '            "start": "node ./my-server.js"  →  "NODE_ENV=production node server.mjs"',
      ].join("\n"),
    );
    // A second run keeps them too, changes nothing, and repeats what to change.
    const second = run();
    const again = await initAction(second, "custom", { yes: true });
    expect(again.changed).toBe(false);
    printInit(second, again);
    expect(second.stdout()).toContain(
      '"start": "node ./my-server.js"  →  "NODE_ENV=production node server.mjs"',
    );
  });

  it("adds .env and .data/ to the app's .gitignore, keeping the user's lines and never twice", async () => {
    const app = await remixApp("ignores", { dev: "remix vite:dev" }, "node_modules\n/.env\n/build");
    await initAction(run(), "ignores", { yes: true });
    const expected =
      "node_modules\n/.env\n/build\n# Tessera: the secret, the embedded database and the dev outbox\n.data/\n";
    expect(await readFile(join(app, ".gitignore"), "utf8")).toBe(expected);
    await initAction(run(), "ignores", { yes: true });
    expect(await readFile(join(app, ".gitignore"), "utf8")).toBe(expected);

    const bare = await remixApp("no-gitignore", { dev: "remix vite:dev" });
    await initAction(run(), "no-gitignore", { yes: true });
    expect(await readFile(join(bare, ".gitignore"), "utf8")).toBe(
      "# Tessera: the secret, the embedded database and the dev outbox\n.env\n.data/\n",
    );
  });

  it("from this checkout packs the @tessera packages into vendor/ and links them, as create does", async () => {
    const app = await remixApp("packed", { dev: "remix vite:dev" });
    // An earlier init without packing wrote registry versions the registry does not have.
    await initAction(run(), "packed", { yes: true });
    expect((await packageJson(app)).dependencies["@tessera/auth-core"]).toBe("^0.1.0");
    const packing = run();
    const result = await initAction(packing, "packed", { yes: true, pack: true });
    expect(result.packages).toBe("vendor");
    // Without a terminal, a line per step on stderr (a cold build takes minutes): a build only for
    // a package whose dist/ is stale, a wait only while another pack of this checkout runs.
    const steps = packing.stderr().trimEnd().split("\n");
    const names = ["@tessera/auth-core", "@tessera/dev-db", "@tessera/cli"];
    expect(steps.filter((line) => !/: (building|waiting) /.test(line))).toEqual([
      ...names.map((name, done) => `packages: packing ${name} (${done}/3)`),
      expect.stringMatching(/^packages: packed 3 into vendor\/ in \d+\.\d s$/),
    ]);
    for (const line of steps.filter((step) => step.includes(": building "))) {
      const name = /building (\S+)/.exec(line)![1]!;
      expect(line).toBe(
        `packages: building ${name} (its dist/ is missing or older than its sources) (${names.indexOf(name)}/3)`,
      );
      expect(steps[steps.indexOf(line) + 1]).toMatch(new RegExp(`^packages: packing ${name} `));
    }
    expect(packing.stdout()).toBe("");
    const tarballs = (await readdir(join(app, "vendor"))).sort();
    expect(tarballs).toEqual([
      "tessera-auth-core-0.1.0.tgz",
      "tessera-cli-0.1.0.tgz",
      "tessera-dev-db-0.1.0.tgz",
    ]);
    const pkg = await packageJson(app);
    expect(pkg.dependencies["@tessera/auth-core"]).toBe("file:vendor/tessera-auth-core-0.1.0.tgz");
    expect(pkg.devDependencies["@tessera/dev-db"]).toBe("file:vendor/tessera-dev-db-0.1.0.tgz");
    expect(pkg.devDependencies["@tessera/cli"]).toBe("file:vendor/tessera-cli-0.1.0.tgz");
    expect(existsSync(join(app, "vendor", "tessera-cli-0.1.0.tgz"))).toBe(true);
    // With --json, nothing but the command's JSON: no progress lines.
    const silent = testRun("unused", { json: true });
    await packWorkspace(silent, checkoutRoot()!, await remixApp("packed-json", {}));
    expect(silent.stderr()).toBe("");
    // Packed already: a second run neither packs nor changes anything.
    const again = await initAction(run(), "packed", { yes: true, pack: true });
    expect(again.changed).toBe(false);
  });
});
