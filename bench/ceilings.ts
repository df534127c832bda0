import { type ChildProcess, spawn } from "node:child_process";
import { scrypt } from "node:crypto";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { DEFAULT_PASSWORD_PARAMS } from "../packages/auth-core/src/crypto/password.ts";
import { SERVER_BUNDLE, SERVER_ENV, SERVER_NODE_FLAGS } from "../packages/auth-core/src/server/build.ts";
import type { Measurement } from "./load.ts";

/**
 * The best any server could do on this machine, measured the same way: a bare node:http process
 * answering the get-session JSON, and scrypt itself with the parameters of crypto/password.ts.
 * Between the bare server and Tessera sits the floor (floor-server.ts): node:http plus the cookie
 * parsing and verification a correct cookie-cached get-session cannot skip.
 */

const BARE_SERVER = `
const http = require("node:http");
const body = process.env.BENCH_BODY;
const server = http.createServer((req, res) => {
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

export interface CeilingServer {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A separate process, like the Tessera server, so both compete with autocannon the same way. */
export function startBareServer(body: string): Promise<CeilingServer> {
  return startCeilingServer(["-e", BARE_SERVER], { BENCH_BODY: body });
}

const FLOOR_SOURCE = join(dirname(fileURLToPath(import.meta.url)), "floor-server.ts");
/**
 * Next to the server bundle, so that its packages (mongodb for ObjectId) resolve the same way; in a
 * folder of its own (ignored by git), since building the server empties dist-serve/.
 */
const FLOOR_BUNDLE = join(dirname(SERVER_BUNDLE), "..", "dist-bench", "floor-server.mjs");

/**
 * floor-server.ts bundled and run with the real server's node flags and environment.
 * `cookies` names the session and cache cookies; `secret` is the bench server's.
 */
export async function startFloorServer(
  secret: string,
  cookies: { sessionToken: string; sessionData: string },
): Promise<CeilingServer> {
  const bundle = FLOOR_BUNDLE;
  await build({
    entryPoints: [FLOOR_SOURCE],
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  return startCeilingServer([...SERVER_NODE_FLAGS, bundle], {
    ...SERVER_ENV,
    BENCH_SECRET: secret,
    BENCH_TOKEN_COOKIE: cookies.sessionToken,
    BENCH_DATA_COOKIE: cookies.sessionData,
  });
}

/** `node <args>` printing `PORT <n>` once listening; stopped with SIGTERM. */
function startCeilingServer(args: string[], env: Record<string, string>): Promise<CeilingServer> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`bare server exited (${code})`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const port = out.match(/PORT (\d+)/)?.[1];
      if (!port) return;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        child,
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/** docs/decisions/: N=16384 (logN 14), r=8, p=1 — the parameters of DEFAULT_PASSWORD_PARAMS. */
// The core's own cost, so the ceiling follows it when it changes (crypto/password.ts).
const SCRYPT = {
  N: 2 ** DEFAULT_PASSWORD_PARAMS.logN,
  r: DEFAULT_PASSWORD_PARAMS.r,
  p: DEFAULT_PASSWORD_PARAMS.p,
  maxmem: 256 * 1024 * 1024,
};

/** Keeps `inFlight` scrypt calls running (as concurrent sign-ins would) for `seconds`. */
export async function measureScrypt(seconds: number, inFlight: number): Promise<Measurement> {
  const durations: number[] = [];
  let failures = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const begin = performance.now();
      try {
        await scryptOnce("bench-password-1", "0123456789abcdef0123456789abcdef");
        durations.push(performance.now() - begin);
      } catch {
        failures += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  durations.sort((a, b) => a - b);
  return {
    name: `bare scrypt (${inFlight} in flight)`,
    rate: durations.length / elapsed,
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    failures,
    cpuMs: { bench: (cpu.user + cpu.system) / 1000 / Math.max(1, durations.length) },
  };
}

function scryptOnce(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 64, SCRYPT, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}
