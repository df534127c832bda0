import { execFile } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CliError } from "./errors.ts";
import type { RunContext } from "./kit.ts";
import { startProgress } from "./progress.ts";

/** The packages an app needs, as the folder names under packages/, their package names and fields. */
export const APP_PACKAGES = [
  ["auth-core", "@tessera/auth-core", "dependencies"],
  ["dev-db", "@tessera/dev-db", "devDependencies"],
  ["cli", "@tessera/cli", "devDependencies"],
] as const;

const run$ = promisify(execFile);

/**
 * The repository's root when this CLI runs from a checkout (src/ or dist/ of packages/cli, or the
 * tests' bundle under its node_modules), else null: a registry install has no workspace above it.
 */
export function checkoutRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < 6; level++) {
    if (existsSync(join(dir, "pnpm-workspace.yaml")) && existsSync(join(dir, "packages", "auth-core", "src")))
      return dir;
    dir = dirname(dir);
  }
  return null;
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
 * running beside it would ship empty. A lock older than 5 minutes is a crashed run's. `onWait` is
 * called once when another holds the lock.
 * @internal Exported for tests/support/pack.ts, whose packs take turns with create's and init's.
 */
export async function withPackLock<T>(root: string, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  const lock = join(root, "packages", ".pack-lock");
  for (let waited = false; ; waited = true) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (!waited) onWait?.();
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

/**
 * Builds (when stale) and packs the app's packages into `<app>/vendor`; returns the `file:` specs.
 * Each step shows on the run's progress (a cold build takes minutes: the user sees which step runs).
 */
export async function packWorkspace(
  run: RunContext,
  root: string,
  app: string,
): Promise<Record<string, string>> {
  const vendor = join(app, "vendor");
  await mkdir(vendor, { recursive: true });
  const [pnpm, prefix] = pnpmCommand(run);
  const specs: Record<string, string> = {};
  const progress = await startProgress(run, "packages");
  const started = performance.now();
  const total = APP_PACKAGES.length;
  const pack = ["--config.ignore-scripts=true", "pack", "--pack-destination", vendor];
  try {
    for (const [done, [folder, name]] of APP_PACKAGES.entries()) {
      const cwd = join(root, "packages", folder);
      const onWait = () => progress.step("waiting for another build or pack in this checkout", done, total);
      await withPackLock(
        root,
        async () => {
          if (isStale(root, folder)) {
            progress.step(`building ${name} (its dist/ is missing or older than its sources)`, done, total);
            await buildPackage(pnpm, prefix, cwd, name, folder);
          }
          progress.step(`packing ${name}`, done, total);
          // Scripts off: prepack would rebuild what was just checked to be fresh.
          await run$(pnpm, [...prefix, ...pack], { cwd, maxBuffer: 16 * 1024 * 1024 });
        },
        onWait,
      );
      const file = (await readdir(vendor)).find((entry) => entry.startsWith(`tessera-${folder}-`));
      if (!file) throw new CliError("PACK_FAILED", `pnpm pack left no tessera-${folder}-*.tgz in ${vendor}`);
      specs[name] = `file:${relative(app, join(vendor, file))}`;
    }
  } catch (error) {
    await progress.fail("stopped");
    throw error;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  await progress.finish(`packed ${total} into vendor/ in ${seconds} s`);
  return specs;
}

async function buildPackage(
  pnpm: string,
  prefix: string[],
  cwd: string,
  name: string,
  folder: string,
): Promise<void> {
  await run$(pnpm, [...prefix, "run", "build"], { cwd, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim().split("\n").slice(-20).join("\n");
      throw new CliError("BUILD_FAILED", `building ${name} failed (packages/${folder}):\n${output}`);
    },
  );
}
