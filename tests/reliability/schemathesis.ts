import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { Person } from "./harness/http-client.ts";
import { reportScenario } from "./harness/report.ts";
import { startStack } from "./harness/stack.ts";

/**
 * "Fuzzing the API" (schemathesis half): schemathesis from PyPI, in a virtualenv under
 * the tessera cache, against the standalone server's /api/auth/openapi.json — every phase it has,
 * the stateful one included (it follows the links it can infer between operations) — as a
 * signed-in admin who owns an organization. Checks: no 5xx, and every response conforms to the
 * schema documented for its status. Full run only: installing it and running it takes minutes.
 */
export const SCHEMATHESIS_VERSION = "4.32.5";
const MAX_EXAMPLES = 25;
const TIME_LIMIT_MS = 15 * 60_000;

function cacheDir(): string {
  return process.env.TESSERA_CACHE_DIR || join(homedir(), ".cache", "tessera");
}

/** Runs a command in `cwd` (schemathesis keeps a cache there: the scenario's temp dir, not the repo). */
async function run(command: string, args: string[], limitMs: number, cwd?: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-200_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The `st` executable of <cache>/schemathesis-venv, (re)installed with pip unless it is this version. */
export async function ensureSchemathesis(): Promise<string> {
  const venv = join(cacheDir(), "schemathesis-venv");
  const st = join(venv, "bin", "st");
  const present = await run(st, ["--version"], 60_000);
  if (present.code === 0 && present.output.includes(SCHEMATHESIS_VERSION)) return st;
  await mkdir(cacheDir(), { recursive: true });
  const created = await run("python3", ["-m", "venv", venv], 120_000);
  if (created.code !== 0)
    throw new Error(`python3 -m venv failed (apt-get install python3-venv):\n${created.output}`);
  const pip = join(venv, "bin", "pip");
  const installed = await run(pip, ["install", "-q", `schemathesis==${SCHEMATHESIS_VERSION}`], 600_000);
  if (installed.code !== 0) throw new Error(`pip install schemathesis failed:\n${installed.output}`);
  return st;
}

export async function runSchemathesisScenario() {
  const st = await ensureSchemathesis();
  const stack = await startStack({ connections: 4, hangAfterMs: 30_000 });
  try {
    const admin = new Person(stack.target);
    const email = "schemathesis-admin@example.com";
    const up = await admin.post("/sign-up/email", {
      name: "Admin",
      email,
      password: "reliability-password-1",
    });
    if (up.status !== 200) throw new Error(`sign-up answered ${up.status}`);
    await stack.db.collection("users").updateOne({ email }, { $set: { role: "admin" } });
    await admin.post("/organization/create", { name: "Fuzzed", slug: "fuzzed" });
    const reportPath = join(stack.workDir, "junit.xml");
    const result = await run(
      st,
      [
        "run",
        `${stack.target.apiURL}/openapi.json`,
        "--url",
        stack.target.apiURL.replace(/\/api\/auth$/, ""),
        "--checks",
        "not_a_server_error,response_schema_conformance",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        String(MAX_EXAMPLES),
        "--seed",
        "16",
        "--request-timeout",
        "20",
        "--header",
        `Cookie: ${admin.cookieHeader}`,
        "--header",
        `Origin: ${stack.target.origin}`,
        "--report",
        "junit",
        "--report-junit-path",
        reportPath,
      ],
      TIME_LIMIT_MS,
      stack.workDir,
    );
    const summary = result.output
      .split("\n")
      .filter((line) => /passed|failed|error|Test cases|Operations|Checks/i.test(line));
    const failures = result.output.match(/^_+ .+ _+$/gm) ?? [];
    reportScenario("schemathesis", {
      version: SCHEMATHESIS_VERSION,
      maxExamples: MAX_EXAMPLES,
      exitCode: result.code,
      summary: summary.slice(-12),
      failures: failures.slice(0, 20),
    });
    return { exitCode: result.code, output: result.output, failures };
  } finally {
    await stack.close();
  }
}
