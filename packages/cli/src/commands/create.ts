import { execFile } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Command } from "commander";
import { CliError, EXIT, usageError } from "../errors.ts";
import {
  type InitOptions,
  type InitResult,
  initAction,
  printInit,
  templatesDir,
  withInitOptions,
} from "../init-app.ts";
import { contextOf, type RunContext } from "../kit.ts";

export interface CreateOptions extends InitOptions {
  /** Pack the workspace's packages into vendor/ when run from a checkout (default false; the command's default true). */
  pack?: boolean | undefined;
  /** Run `npm install` in the new app (default false; the command's default true). */
  install?: boolean | undefined;
}

export interface CreateResult extends InitResult {
  /** Where the app's @tessera packages come from: tarballs packed from this checkout, or the registry. */
  packages: "vendor" | "registry";
  installed: boolean;
}

/** The packages an app needs, as the folder names under packages/ and their package names. */
const PACKAGES = [
  ["auth-core", "@tessera/auth-core", "dependencies"],
  ["dev-db", "@tessera/dev-db", "devDependencies"],
  ["cli", "@tessera/cli", "devDependencies"],
] as const;

const run$ = promisify(execFile);

/** The repository's root when this CLI runs from a checkout (packages/cli/src/commands), else null. */
function checkoutRoot(): string | null {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
  return existsSync(join(root, "pnpm-workspace.yaml")) &&
    existsSync(join(root, "packages", "auth-core", "src"))
    ? root
    : null;
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** dist/ is missing or older than a source it is built from (the CLI's dist also carries the templates). */
function isStale(root: string, folder: string): boolean {
  const pkg = join(root, "packages", folder);
  const built = join(pkg, "dist", "index.js");
  if (!existsSync(built)) return true;
  const sources = [join(pkg, "src"), join(pkg, "package.json")];
  if (folder === "cli") sources.push(join(root, "templates"));
  return Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
}

/** pnpm as this process was started with it (`npx -y pnpm@… tessera`), else through npx. */
function pnpmCommand(run: RunContext): [string, string[]] {
  const execPath = run.io.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  return ["npx", ["-y", "pnpm@10.34.9"]];
}

/**
 * One package build or pack at a time across the checkout: a build empties dist/ first, which a pack
 * running beside it would ship empty (tests/support/pack.ts takes the same lock).
 */
async function withPackLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const lock = join(root, "packages", ".pack-lock");
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) await rm(lock, { recursive: true, force: true });
      } catch {}
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Builds (when stale) and packs the app's packages into `<app>/vendor`; returns the `file:` specs. */
async function packWorkspace(run: RunContext, root: string, app: string): Promise<Record<string, string>> {
  const vendor = join(app, "vendor");
  await mkdir(vendor, { recursive: true });
  const [pnpm, prefix] = pnpmCommand(run);
  const specs: Record<string, string> = {};
  for (const [folder, name] of PACKAGES) {
    const cwd = join(root, "packages", folder);
    await withPackLock(root, async () => {
      if (isStale(root, folder)) {
        run.io.stderr.write(`building ${name} (its dist/ is missing or older than its sources)\n`);
        await run$(pnpm, [...prefix, "run", "build"], { cwd, maxBuffer: 16 * 1024 * 1024 }).catch(
          (error: { stdout?: string; stderr?: string }) => {
            const output = `${error.stdout ?? ""}${error.stderr ?? ""}`
              .trim()
              .split("\n")
              .slice(-20)
              .join("\n");
            throw new CliError("BUILD_FAILED", `building ${name} failed (packages/${folder}):\n${output}`);
          },
        );
      }
      // Scripts off: prepack would rebuild what was just checked to be fresh.
      await run$(pnpm, [...prefix, "--config.ignore-scripts=true", "pack", "--pack-destination", vendor], {
        cwd,
        maxBuffer: 16 * 1024 * 1024,
      });
    });
    const file = (await readdir(vendor)).find((entry) => entry.startsWith(`tessera-${folder}-`));
    if (!file) throw new CliError("PACK_FAILED", `pnpm pack left no tessera-${folder}-*.tgz in ${vendor}`);
    specs[name] = `file:${relative(app, join(vendor, file))}`;
  }
  return specs;
}

/**
 * `tessera create <dir>`: a new Remix app from templates/remix-app, init on it, its @tessera packages
 * packed from this checkout into vendor/ (or the registry's versions when the CLI was installed from
 * a registry), then `npm install`.
 */
export async function createAction(
  run: RunContext,
  dirArg: string,
  options: CreateOptions,
): Promise<CreateResult> {
  const dir = resolve(run.io.cwd, dirArg);
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw usageError(`${dir} exists and is not empty`);
  const root = options.pack ? checkoutRoot() : null;
  const packages = root ? "vendor" : "registry";
  if (options.dryRun)
    return {
      dir,
      dryRun: true,
      files: [],
      env: { added: [] },
      dependencies: { added: [] },
      changed: true,
      packages,
      installed: false,
    };
  await cp(join(templatesDir(), "remix-app"), dir, { recursive: true });
  // npm drops .gitignore from packages: the template carries it as `gitignore`.
  if (existsSync(join(dir, "gitignore"))) await rename(join(dir, "gitignore"), join(dir, ".gitignore"));
  const pkgPath = join(dir, "package.json");
  const pkg = JSON.parse(await readFile(pkgPath, "utf8")) as { name: string };
  pkg.name =
    dirArg
      .split(/[\\/]/)
      .filter(Boolean)
      .at(-1)
      ?.toLowerCase()
      .replace(/[^a-z0-9-]/g, "-") ?? "tessera-app";
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  const result = await initAction(run, dir, options);
  if (root) {
    const specs = await packWorkspace(run, root, dir);
    const app = JSON.parse(await readFile(pkgPath, "utf8")) as Record<string, Record<string, string>>;
    for (const [, name, field] of PACKAGES) {
      for (const other of ["dependencies", "devDependencies"]) delete app[other]?.[name];
      app[field] = { ...app[field], [name]: specs[name]! };
    }
    await writeFile(pkgPath, `${JSON.stringify(app, null, 2)}\n`);
  }
  if (options.install) {
    run.io.stderr.write("npm install …\n");
    try {
      await run$("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new CliError("INSTALL_FAILED", `npm install failed in ${dir}:\n${stderr.trim()}`, EXIT.failure);
    }
  }
  return { ...result, packages, installed: options.install === true };
}

export const createCommand = withInitOptions(
  new Command("create").description("make a new Remix app with Tessera in it").argument("<dir>"),
)
  .option("--no-pack", "take @tessera packages from the registry even when run from a checkout")
  .option("--no-install", "do not run npm install")
  .action(async (dir: string, options: CreateOptions, command: Command) => {
    const run = contextOf(command);
    const result = await createAction(run, dir, options);
    const cd = `cd ${relative(run.io.cwd, result.dir) || "."}`;
    printInit(
      run,
      result,
      result.installed
        ? `next: ${cd} && npm run dev   (an embedded database starts in .data/; mails at /dev/outbox)`
        : `next: ${cd} && npm install && npm run dev`,
    );
  });
