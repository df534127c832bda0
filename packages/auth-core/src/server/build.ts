/**
 * `pnpm serve` (and `pnpm bench`) run the standalone server from one bundled ESM file with plain
 * node rather than through tsx: tsx keeps a loader thread with its own V8 heap alive for the whole
 * process (~40 MB of resident memory, a quarter of the server's budget). Bundling takes well under a
 * second, so `serve` rebuilds every time and never runs a stale bundle.
 *
 * Everything under packages/auth-core/src is bundled; packages stay external and resolve from
 * packages/auth-core/node_modules as usual. `@tessera/dev-db` is external too: it is TypeScript, and
 * the server loads it (through tsx) only when there is no MONGODB_URI (resources.ts). Dynamic imports
 * stay lazy (code splitting), so nodemailer is not loaded without SMTP_URL.
 *
 *   tsx packages/auth-core/src/server/build.ts   → packages/auth-core/dist-serve/main.mjs
 */
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SERVER_ENTRY = join(PACKAGE_ROOT, "src", "server", "main.ts");
/** What `pnpm serve` runs: `node <SERVER_NODE_FLAGS> <SERVER_BUNDLE>` with SERVER_ENV. */
export const SERVER_BUNDLE = join(PACKAGE_ROOT, "dist-serve", "main.mjs");

/**
 * --optimize-for-size: V8 grows the heap in smaller steps and collects sooner. An auth server's live
 * heap is small (~20 MB) but a database-backed request leaves a lot of short-lived garbage; with
 * V8's defaults the old generation grew to ~80 MB between collections (peak RSS ~230 MB under the
 * bench, ~100 MB with the flag), at no measurable cost in throughput.
 * --enable-source-maps: stack traces of logged errors name the TypeScript files (~2 MB).
 */
export const SERVER_NODE_FLAGS = ["--optimize-for-size", "--enable-source-maps"];

/**
 * glibc gives threads that allocate concurrently their own malloc arenas (up to 8 per core) and keeps
 * what an arena has freed. Every scrypt run (sign-up, sign-in, password changes) allocates 16 MiB on
 * a libuv pool thread; with several arenas each ends up holding its own 16 MiB blocks, which was
 * ~50 MB of peak RSS under a sign-in flood. One arena bounds that to the runs in flight (two, see
 * crypto/password.ts); measured, sign-in throughput is unchanged (small allocations go through the
 * per-thread caches without the arena lock). Read by glibc at process start, so whoever starts the
 * process sets it (the `serve` script, the bench); other C libraries ignore it.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: "1" };

export async function buildServer(): Promise<string> {
  // Chunk names carry a content hash: start clean so old chunks do not pile up.
  await rm(dirname(SERVER_BUNDLE), { recursive: true, force: true });
  await build({
    entryPoints: { main: SERVER_ENTRY },
    outdir: dirname(SERVER_BUNDLE),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  return SERVER_BUNDLE;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServer();
}
