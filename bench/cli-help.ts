/**
 * `pnpm bench:cli-help`: how long `tessera --help` takes, from spawning node to its exit, with the
 * built binary (packages/cli/dist; built first when missing). Target: under 300 ms. A measurement,
 * not a test: prints the median and the range of BENCH_ROUNDS runs (default 15) and PASS/MISS.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const CLI = join(import.meta.dirname, "..", "packages", "cli");
const TARGET_MS = 300;
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

if (!existsSync(join(CLI, "dist", "main.js")))
  execFileSync("pnpm", ["run", "build"], { cwd: CLI, stdio: "inherit" });

const times: number[] = [];
for (let round = 0; round < rounds; round++) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [join(CLI, "bin", "tessera.mjs"), "--help"], {
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`tessera --help exited ${result.status}: ${result.stderr}`);
  times.push(ms);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  `tessera --help: median ${median.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times.at(-1)!.toFixed(0)}, ${rounds} runs) — target < ${TARGET_MS} ms: ${median < TARGET_MS ? "PASS" : "MISS"}`,
);
