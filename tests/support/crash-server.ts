import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { inject } from "vitest";

/**
 * The harness of the kill tests (tests/events/crash.test.ts, tests/mail/crash.test.ts): a server
 * child on the test database, SIGKILLed while loops of requests run against it; the POSTs those
 * loops send, counted so that a kill can wait for some answers; the people they act as.
 */

type ChildSettings = { dbName: string; secret: string; env?: Record<string, string> };
type RunningChild = { child: ChildProcess; url: string };

function childEnv(settings: ChildSettings): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    PORT: "0",
    MONGODB_URI: inject("mongoUri"),
    TESSERA_DB_NAME: settings.dbName,
    TESSERA_SECRET: settings.secret,
    ...settings.env,
  };
}

/**
 * Where a child's start went (measured 2026-11-29, 2 cores at load average 4–18): through tsx, 5–6 s
 * to listening (tsx's own start, its compiling of the TypeScript, ~8 MB of modules parsed and run);
 * bundled and run with plain node, ~1 s, of which the server's own start (connect, migrations
 * already applied, the repair pass, listen) ~0.1–0.2 s. So `crashChildren` bundles the script once
 * per test file into a temporary directory (CommonJS: its dynamic imports stay lazy, and V8 can
 * reuse its compiled code) and runs it with plain node through LOADER, which:
 * - loads the bundle (the server's modules) and waits for "go" on stdin before running the script,
 *   so each child is started one kill ahead and a restart waits only for the server's own start;
 * - compiles the bundle with V8's code cache once a child has written one ("cache" on stdin,
 *   answered "cached" on stdout once the file is in place): loading then costs ~0.3 s of CPU
 *   instead of ~0.45, and the functions the first server ran are not compiled again.
 * A child exits when its stdin closes (the test process gone). The script must not use top-level
 * await (a CommonJS bundle cannot hold it).
 */
const LOADER = `const vm = require("node:vm");
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const file = path.join(__dirname, "bundle.cjs");
const cacheFile = path.join(__dirname, "bundle.cache");
let cachedData;
try { cachedData = fs.readFileSync(cacheFile); } catch {}
const script = new vm.Script(Module.wrap(fs.readFileSync(file, "utf8")), { filename: file, cachedData });
const bundle = { exports: {} };
script.runInThisContext().call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, __dirname);
process.stdin.on("end", () => process.exit(0));
process.stdin.setEncoding("utf8");
process.stdin.on("data", (line) => {
  if (line.startsWith("go")) bundle.exports.run();
  if (line.startsWith("cache")) {
    fs.writeFileSync(cacheFile + ".part", script.createCachedData());
    fs.renameSync(cacheFile + ".part", cacheFile);
    process.stdout.write("cached\\n");
  }
});
`;

async function bundleCrashChild(script: string): Promise<{ dir: string; loader: string }> {
  const dir = await mkdtemp(join(tmpdir(), "tessera-crash-child-"));
  await build({
    stdin: {
      // The server's modules are loaded with the bundle; the script runs when called.
      contents: `export { startServer } from "@tessera/auth-core/server";
        export const run = () => import(${JSON.stringify(script)});`,
      resolveDir: import.meta.dirname,
      sourcefile: "crash-child-entry.ts",
      loader: "ts",
    },
    outfile: join(dir, "bundle.cjs"),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // The ESM build where a package has one: bundled, @zxcvbn-ts/language-common's CommonJS build
    // answered its dynamic import without its named export.
    mainFields: ["module", "main"],
    // Loaded only without MONGODB_URI (server/resources.ts): never here.
    external: ["@tessera/dev-db"],
    logLevel: "error",
  });
  await writeFile(join(dir, "loader.cjs"), LOADER);
  return { dir, loader: join(dir, "loader.cjs") };
}

/** The lines a child prints, one by one. */
function linesOf(child: ChildProcess): () => Promise<string> {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let out = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    out += chunk;
    for (let end = out.indexOf("\n"); end >= 0; end = out.indexOf("\n")) {
      const line = out.slice(0, end).trim();
      out = out.slice(end + 1);
      const reader = waiting.shift();
      if (reader) reader(line);
      else lines.push(line);
    }
  });
  return () => {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      waiting.push(resolve);
      child.once("exit", (code) => reject(new Error(`crash child exited with ${code}`)));
    });
  };
}

/**
 * Servers for a kill test: `next()` answers a started server running `script` (its modules were
 * loaded while the previous one ran); `keepCompiledCode(child)` has a running child write V8's code
 * cache for the children after it; `close()` ends the spare and removes the bundle.
 */
export function crashChildren(script: string, settings: ChildSettings) {
  const bundled = bundleCrashChild(script);
  const spawnWaiting = async () => {
    const { loader } = await bundled;
    const child = spawn(process.execPath, [loader], {
      env: childEnv(settings),
      stdio: ["pipe", "pipe", "inherit"],
    });
    return { child, nextLine: linesOf(child) };
  };
  let spare = spawnWaiting();
  const running = new Map<ChildProcess, () => Promise<string>>();
  return {
    async next(): Promise<RunningChild> {
      const { child, nextLine } = await spare;
      child.stdin!.write("go\n");
      const url = await nextLine();
      running.set(child, nextLine);
      // The next one loads while this one serves (and after the code cache, when it was asked for).
      spare = spawnWaiting();
      return { child, url };
    },
    async keepCompiledCode(child: ChildProcess): Promise<void> {
      child.stdin!.write("cache\n");
      const line = await running.get(child)!();
      if (line !== "cached") throw new Error(`crash child answered ${line} to "cache"`);
      (await spare).child.kill("SIGKILL");
      spare = spawnWaiting();
    },
    async close(): Promise<void> {
      (await spare).child.kill("SIGKILL");
      await rm((await bundled).dir, { recursive: true, force: true });
    },
  };
}

/** Answers received by the loops of the current server (reset before each; a kill waits for some). */
export const answers = { count: 0 };

/** A POST of JSON to the server at `url`, with its origin and a session cookie when given. */
export function poster(url: string) {
  const origin = new URL(url).origin;
  return (path: string, body: unknown, cookie = "") =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    }).then((res) => {
      answers.count++;
      return res;
    });
}

/** `count` people signed up once (scrypt is the slow part); their sessions outlive the kills. */
export async function signUpPeople(url: string, count: number): Promise<{ email: string; cookie: string }[]> {
  const post = poster(url);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const email = `p${i}@example.com`;
      const res = await post("/sign-up/email", { name: email, email, password: "correct horse battery" });
      const cookie = res.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      return { email, cookie };
    }),
  );
}
