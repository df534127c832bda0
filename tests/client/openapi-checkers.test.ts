import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";

/**
 * What generators and gateways do with the document, run as they run it: Redocly's `recommended`
 * rules with no warning, swagger-parser's validation, and openapi-typescript's output compiled with
 * `tsc --strict`. One document (teams, and API keys standing for sessions: every scheme in use).
 */
const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../node_modules/.bin/", import.meta.url));

const ORIGIN = "https://auth.tessera.test";

let test: TestAuth;
let dir: string;
let file: string;
let document: Record<string, unknown>;
beforeAll(async () => {
  // A deployment's origin: Redocly rightly flags a document whose server is localhost.
  test = await createTestAuth({
    baseURL: ORIGIN,
    organization: { teams: { enabled: true } },
    apiKey: { enableSessionForAPIKeys: true },
  });
  const response = await test.auth.handler(new Request(`${ORIGIN}/api/auth/openapi.json`));
  document = (await response.json()) as Record<string, unknown>;
  dir = await mkdtemp(join(tmpdir(), "tessera-openapi-"));
  file = join(dir, "openapi.json");
  await writeFile(file, JSON.stringify(document));
});
afterAll(async () => {
  await test?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the OpenAPI document, as its tools read it", () => {
  it("passes Redocly's recommended rules without an error or a warning", async () => {
    await writeFile(join(dir, "redocly.yaml"), "extends:\n  - recommended\n");
    const { stdout } = await run(
      join(BIN, "redocly"),
      ["lint", file, "--config", join(dir, "redocly.yaml"), "--format=json"],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        cwd: dir,
      },
    );
    const report = JSON.parse(stdout) as { totals: object; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("is valid for swagger-parser", async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it("gives openapi-typescript types that compile under tsc --strict", async () => {
    const types = astToString(await openapiTS(structuredClone(document) as never));
    // A .ts file, so skipLibCheck skips the standard library's declarations and not these types.
    await writeFile(join(dir, "api.ts"), types);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: "ES2022",
      lib: ["ES2022"],
      types: [],
    };
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["api.ts"] }));
    const result = await run(join(BIN, "tsc"), ["-p", join(dir, "tsconfig.json")]).catch(
      (error: { stdout: string }) => error,
    );
    expect(result.stdout).toBe("");
    // The named models arrive as named types.
    expect(types).toMatch(/\bUser: \{/);
    expect(types).toMatch(/\bJsonValue: /);
  });
});
