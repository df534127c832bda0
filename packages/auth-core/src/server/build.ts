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
 * The heap is bounded by two explicit limits rather than --optimize-for-size, which also pins the
 * young generation at 1 MB: a request's short-lived garbage (~20 KB for a cookie-cached
 * get-session, far more for a database read) then filled it every ~50 requests, and each
 * scavenge cost ~0.7 ms whatever it found alive, so the collector took ~20 µs of a 90 µs cached
 * get-session; with database reads in flight, their documents outlived that young generation and
 * were promoted (the old generation grew and was marked again and again).
 * --max-semi-space-size=8: a young generation of up to 2×8 MB, scavenged about 7× less often
 * (bench, 40,000 cached get-sessions: 118 scavenges instead of 825, ~80 instead of ~90 µs of CPU).
 * --heap-growing-percent=20: the old generation grows by 20% between full collections, as it did
 * under --optimize-for-size; with V8's default factor (up to 4×) it grew to ~80 MB between
 * collections under load (peak RSS ~230 MB). Peak RSS under the bench stays ≤ 150 MB (bench/run.ts).
 * No --enable-source-maps: Node then parses the bundle's 1.7 MB map at start and keeps it, 4.5 MB of
 * heap and 9–10 MB of peak RSS (measured: a server after 30 sign-ups peaked at 120–122 MB with it,
 * 111–112 without). The bundle is not minified, so a logged stack names the functions, and
 * dist-serve/main.mjs.map stays beside it: add --enable-source-maps (or NODE_OPTIONS) to have
 * stacks name the TypeScript files while investigating.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=8", "--heap-growing-percent=20"];

/**
 * glibc gives threads that allocate concurrently their own malloc arenas (up to 8 per core) and keeps
 * what an arena has freed. Every scrypt run (sign-up, sign-in, password changes) allocates 16 MiB on
 * a libuv pool thread; with several arenas each ends up holding its own 16 MiB blocks, which was
 * ~50 MB of peak RSS under a sign-in flood. One arena bounds that to the runs in flight (two, see
 * crypto/password.ts); measured, sign-in throughput is unchanged (small allocations go through the
 * per-thread caches without the arena lock). Read by glibc at process start, so whoever starts the
 * process sets it (the `serve` script, the bench); other C libraries ignore it.
 *
 * glibc also serves a large block from its own mmap (returned to the system when freed) only while
 * the block is over a threshold that starts at 128 KiB and rises to the size of each such block freed:
 * after the first scrypt run the 16 MiB blocks came from the arena, which kept them once freed, and
 * the peak RSS of the side-by-side bench and of the slow-database scenario went over 150 MB (156.9
 * and 166). A fixed 1 MiB threshold stops the rise: every block of 1 MiB or more is mapped and
 * unmapped, smaller ones stay in the arena. Measured on a sign-in and get-session mix, peak RSS
 * 150.8/152.5 → 134.5/137.7 MB with CPU per request unchanged (docs/scale.md).
 */
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: "1",
  GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=1048576",
};

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
