import { execFile } from "node:child_process";
import { copyFile, readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { withPackLock } from "../../packages/cli/src/pack-workspace.ts";

const WORKSPACE = join(import.meta.dirname, "..", "..");

async function findTarball(dir: string, name: string): Promise<string | undefined> {
  const file = (await readdir(dir)).find((entry) => entry.startsWith(`tessera-${name}-`));
  return file && join(dir, file);
}

/**
 * `pnpm pack` of packages/<name>, as the publish would make it, copied into `destination`; returns
 * the copy's path. A pack is a full build (prepack), so a test run packs each package once, into
 * its run directory (global-setup.ts), and every test file that asks gets a copy of that tarball.
 * Packs take turns under the CLI's pack lock, which `tessera create` and `init` take too: a build
 * empties dist/, which a pack beside it would ship empty.
 */
export async function packPackage(name: string, destination: string): Promise<string> {
  const runDir = inject("packDir");
  const tarball = await withPackLock(WORKSPACE, async () => {
    const packed = await findTarball(runDir, name);
    if (packed) return packed;
    const cwd = join(WORKSPACE, "packages", name);
    // dist/ built during this run (`tessera create` in tests/e2e/new-app.test.ts builds a stale
    // package under the same lock) is what prepack would build again: pack it as it is.
    const built = await stat(join(cwd, "dist", "index.js")).catch(() => null);
    const fresh = built !== null && built.mtimeMs >= inject("runStartedAt");
    const scripts = fresh ? ["--config.ignore-scripts=true"] : [];
    await promisify(execFile)("pnpm", [...scripts, "pack", "--pack-destination", runDir], {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      // The build's own words (a type error, a missing file): the bare "Command failed" says nothing.
      const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim().split("\n").slice(-30).join("\n");
      throw new Error(`pnpm pack of packages/${name} failed:\n${output}`);
    });
    const made = await findTarball(runDir, name);
    if (!made) throw new Error(`pnpm pack left no tessera-${name}-*.tgz in ${runDir}`);
    return made;
  });
  const copy = join(destination, basename(tarball));
  await copyFile(tarball, copy);
  return copy;
}
