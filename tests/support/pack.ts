import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { withPackLock } from "../../packages/cli/src/pack-workspace.ts";

const WORKSPACE = join(import.meta.dirname, "..", "..");

/**
 * `pnpm pack` of packages/<name> into `destination`, as the publish would make it; returns the
 * tarball's path. Packing rebuilds a package's dist/ (prepack), which another pack would delete:
 * packs take turns under the CLI's pack lock, which `tessera create` and `init` take too.
 */
export async function packPackage(name: string, destination: string): Promise<string> {
  await withPackLock(WORKSPACE, () =>
    promisify(execFile)("pnpm", ["pack", "--pack-destination", destination], {
      cwd: join(WORKSPACE, "packages", name),
      maxBuffer: 16 * 1024 * 1024,
    }),
  );
  const file = (await readdir(destination)).find((entry) => entry.startsWith(`tessera-${name}-`));
  if (!file) throw new Error(`pnpm pack left no tessera-${name}-*.tgz in ${destination}`);
  return join(destination, file);
}
