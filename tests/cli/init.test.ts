import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAction } from "../../packages/cli/src/commands/create.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { initAction } from "../../packages/cli/src/init-app.ts";
import { appNameOf } from "../../packages/cli/src/init-setup.ts";
import { buildCli, runCli } from "./cli-process.ts";
import { testRun } from "./run-context.ts";

/** `tessera create` / `tessera init` on a fresh copy of the Remix template: idempotent, never clobbering. */
let root: string;
// The binary runs as a child process loading the core through tsx: seconds apiece on a busy machine.
vi.setConfig({ testTimeout: 180_000 });
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tessera-init-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function run() {
  const context = testRun("unused");
  return { ...context, io: { ...context.io, cwd: root } };
}

const secretOf = (env: string) => /^TESSERA_SECRET=(.+)$/m.exec(env)?.[1];

describe("tessera create and init", () => {
  it("create makes the Remix app and adds the auth files, .env with a fresh secret and the dependencies", async () => {
    const result = await createAction(run(), "shop", { yes: true, providers: "github" });
    const app = join(root, "shop");
    expect(result.changed).toBe(true);
    for (const path of [
      "app/auth.server.ts",
      "app/routes/api.auth.$.ts",
      "app/routes/sign-in.tsx",
      "app/routes/sign-up.tsx",
      "app/routes/forgot-password.tsx",
      "app/routes/reset-password.tsx",
      "app/routes/verify-email.tsx",
      "app/routes/two-factor.tsx",
      "app/routes/accept-invitation.$id.tsx",
      "app/routes/account.tsx",
      "tessera.config.ts",
    ]) {
      expect(result.files).toContainEqual({ path, action: "create" });
      expect(existsSync(join(app, path))).toBe(true);
    }
    expect(existsSync(join(app, ".gitignore"))).toBe(true);
    const env = await readFile(join(app, ".env"), "utf8");
    expect(secretOf(env)).toMatch(/^[\w-]{43}$/);
    expect(env).toContain("GITHUB_CLIENT_ID=");
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain("github: {");
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain('appName: "Shop",');
    const pkg = JSON.parse(await readFile(join(app, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "shop", dependencies: { "@tessera/auth-core": "^0.1.0" } });
  });

  it("names the app after package.json's name in tessera.config.ts, and writes TESSERA_BASE_URL commented out with when to set it", async () => {
    const result = await createAction(run(), "my-app", { yes: true });
    const app = join(root, "my-app");
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain('\n  appName: "My app",\n');
    expect(result.env).toEqual({ added: ["TESSERA_SECRET"], commented: ["TESSERA_BASE_URL"] });
    const env = await readFile(join(app, ".env"), "utf8");
    expect(env.split("\n").slice(1)).toEqual([
      "# Set when visitors reach the app at another address than this machine's port (deployed behind a proxy, another host); unset, the base URL follows the port the server listens on.",
      "# TESSERA_BASE_URL=https://app.example.com",
      "",
    ]);
    // What the app's server and config load from it (process.loadEnvFile's parser): no base URL.
    expect(Object.keys(parseEnv(env))).toEqual(["TESSERA_SECRET"]);
    const again = await initAction(run(), "my-app", { yes: true });
    expect(again.changed).toBe(false);
    expect(await readFile(join(app, ".env"), "utf8")).toBe(env);
    expect(["@acme/shop_front", "tessera.app", "x", "---"].map(appNameOf)).toEqual([
      "Shop front",
      "Tessera app",
      "X",
      "My app",
    ]);
  });

  it("a second init changes nothing and says so; the secret stays", async () => {
    const app = join(root, "shop");
    const before = await readFile(join(app, ".env"), "utf8");
    const again = await initAction(run(), "shop", { yes: true, providers: "github" });
    expect(again.changed).toBe(false);
    expect(again.files.every((file) => file.action === "unchanged")).toBe(true);
    expect(await readFile(join(app, ".env"), "utf8")).toBe(before);
  });

  it("a file the user changed is kept (--force overwrites it); --dry-run writes nothing", async () => {
    const app = join(root, "shop");
    const signIn = join(app, "app/routes/sign-in.tsx");
    await writeFile(signIn, "// mine\n");
    await rm(join(app, "app/routes/account.tsx"));
    const dry = await initAction(run(), "shop", { yes: true, providers: "github", dryRun: true });
    expect(dry.files).toContainEqual({ path: "app/routes/sign-in.tsx", action: "kept" });
    expect(dry.files).toContainEqual({ path: "app/routes/account.tsx", action: "create" });
    expect(existsSync(join(app, "app/routes/account.tsx"))).toBe(false);

    const kept = await initAction(run(), "shop", { yes: true, providers: "github" });
    expect(kept.files).toContainEqual({ path: "app/routes/sign-in.tsx", action: "kept" });
    expect(await readFile(signIn, "utf8")).toBe("// mine\n");
    expect(existsSync(join(app, "app/routes/account.tsx"))).toBe(true);

    const forced = await initAction(run(), "shop", { yes: true, providers: "github", force: true });
    expect(forced.files).toContainEqual({ path: "app/routes/sign-in.tsx", action: "overwrite" });
    expect(await readFile(signIn, "utf8")).toContain("signInEmail");
  });

  it("the CLI run twice keeps what the first run set: language, features, providers, the secret, .env values, the config's dbName", async () => {
    await buildCli();
    const first = await runCli(
      [
        "create",
        "twice",
        "--yes",
        "--no-pack",
        "--no-install",
        "--language",
        "RUS",
        "--features",
        "organization,admin",
        "--providers",
        "github",
      ],
      { cwd: root },
    );
    expect(first.code).toBe(0);
    const app = join(root, "twice");
    const config = join(app, "tessera.config.ts");
    const envBefore = await readFile(join(app, ".env"), "utf8");
    const configBefore = await readFile(config, "utf8");
    expect(configBefore).toContain('language: "RUS"');

    const plain = await runCli(["init", "--yes", "--no-pack"], { cwd: app });
    expect(plain).toMatchObject({
      code: 0,
      stdout: `Tessera is already set up in ${app}: nothing to change\n`,
    });
    expect(await readFile(config, "utf8")).toBe(configBefore);
    expect(existsSync(join(app, "app/routes/two-factor.tsx"))).toBe(false);

    // What the user set since: a database of their own, and the config's dbName.
    const envEdited = `${envBefore}MONGODB_URI=mongodb://db.internal:27017\n`;
    await writeFile(join(app, ".env"), `${envEdited}TESSERA_DB_NAME=shop\n`);
    await writeFile(config, configBefore.replace('?? "app"', '?? "shop"'));
    const again = await runCli(["init", "--yes", "--no-pack", "--db-uri", "mongodb://127.0.0.1:27017"], {
      cwd: app,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `Tessera is already set up in ${app}: nothing to change\nkept      tessera.config.ts (changed by you; --force overwrites it)\n`,
    );
    expect(await readFile(join(app, ".env"), "utf8")).toBe(`${envEdited}TESSERA_DB_NAME=shop\n`);
    expect(secretOf(await readFile(join(app, ".env"), "utf8"))).toBe(secretOf(envBefore));
    expect(await readFile(config, "utf8")).toContain('dbName: process.env.TESSERA_DB_NAME ?? "shop"');
  });

  it("--language takes a BCP 47 tag (a region form maps to its language); .env names no database unless given", async () => {
    await createAction(run(), "tags", { yes: true, language: "de-AT" });
    const app = join(root, "tags");
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain('language: "GERMAN"');
    // No URI given: development uses the embedded database (app/auth.server.ts), not a guessed server.
    expect(await readFile(join(app, ".env"), "utf8")).not.toContain("MONGODB_URI");
    await initAction(run(), "tags", { yes: true, language: "fr" });
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain('language: "FRA"');
    const error = await initAction(run(), "tags", { yes: true, language: "pt-BR" }).catch(
      (caught: unknown) => caught,
    );
    expect(toKnownError(error)?.exitCode).toBe(2);
    expect((error as Error).message).toBe(
      "--language: a BCP 47 tag of one of en, ru, uk, es, de, pl, fr, tr (a region form such as de-AT maps to its language)",
    );
  });

  it("refuses a directory that is not a Remix app (exit 2)", async () => {
    await writeFile(join(root, "package.json"), JSON.stringify({ name: "not-remix" }));
    const error = await initAction(run(), ".", { yes: true }).catch((caught: unknown) => caught);
    expect(toKnownError(error)?.exitCode).toBe(2);
  });
});
