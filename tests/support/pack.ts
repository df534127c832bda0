import { execFile } from "node:child_process";
import { statSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const WORKSPACE = join(import.meta.dirname, "..", "..");
/** One pack at a time: packing rebuilds a package's dist/ (prepack), which another pack would delete. */
const LOCK = join(WORKSPACE, "packages", ".pack-lock");

/**
 * `pnpm pack` of packages/<name> into `destination`, as the publish would make it; returns the
 * tarball's path. Test files packing side by side (the consumer and scaffold tests) take turns; a
 * lock older than 5 minutes is a crashed run's.
 */
export async function packPackage(name: string, destination: string): Promise<string> {
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 300_000) await rm(LOCK, { recursive: true, force: true });
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await promisify(execFile)("pnpm", ["pack", "--pack-destination", destination], {
      cwd: join(WORKSPACE, "packages", name),
      maxBuffer: 16 * 1024 * 1024,
    });
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
  const file = (await readdir(destination)).find((entry) => entry.startsWith(`tessera-${name}-`));
  if (!file) throw new Error(`pnpm pack left no tessera-${name}-*.tgz in ${destination}`);
  return join(destination, file);
}
