import { type ChildProcess, spawn } from "node:child_process";
import { scrypt } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Measurement } from "./load.ts";

/**
 * The best any server could do on this machine, measured the same way: a bare node:http process
 * answering the get-session JSON, and scrypt itself with the parameters of crypto/password.ts.
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

export interface BareServer {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A separate process, like the Tessera server, so both compete with autocannon the same way. */
export function startBareServer(body: string): Promise<BareServer> {
  const child = spawn(process.execPath, ["-e", BARE_SERVER], {
    env: { PATH: process.env.PATH ?? "", BENCH_BODY: body },
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

/** DECISIONS.md: N=16384 (logN 14), r=8, p=1 — the parameters of DEFAULT_PASSWORD_PARAMS. */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Keeps `inFlight` scrypt calls running (as concurrent sign-ins would) for `seconds`. */
export async function measureScrypt(seconds: number, inFlight: number): Promise<Measurement> {
  const durations: number[] = [];
  let failures = 0;
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
  durations.sort((a, b) => a - b);
  return {
    name: `bare scrypt (${inFlight} in flight)`,
    rate: durations.length / elapsed,
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    failures,
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
