import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { scimServerForFile } from "#test/scim.ts";

/**
 * The public SCIM conformance checkers against the live standalone server (issue 32 §1): scim2-tester
 * and scim-sanity (PyPI), from the venv .ci/run makes (SCIM_CHECKERS_VENV). Without the venv the
 * file is skipped on a workstation, and fails in CI. What Tessera declines on purpose is named here
 * and in docs/security.md "SCIM"; anything else failing fails the test.
 */
const run = promisify(execFile);
const venv = process.env.SCIM_CHECKERS_VENV ?? "";
const python = join(venv, "bin", "python");
const sanity = join(venv, "bin", "scim-sanity");
const installed = venv !== "" && existsSync(python) && existsSync(sanity);
const TIMEOUT = 300_000;

describe.skipIf(!installed && !process.env.CI)("SCIM conformance checkers", () => {
  const server = scimServerForFile();

  it("the venv with both checkers is there (CI makes it in .ci/run)", () => {
    expect(installed, `SCIM_CHECKERS_VENV=${venv} has no scim2-tester/scim-sanity`).toBe(true);
  });

  it(
    "scim2-tester: every check succeeds; only the optional search across resource types is skipped",
    async () => {
      const driver = join(import.meta.dirname, "run-scim2-tester.py");
      const { stdout } = await run(python, [driver, server.baseUrl, server.token], {
        timeout: TIMEOUT,
        maxBuffer: 16 * 1024 * 1024,
      });
      const results = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { status: string; title: string; resource_type: string | null });
      const passing = new Set(["SUCCESS", "COMPLIANT", "ACCEPTABLE"]);
      expect(results.filter((r) => passing.has(r.status)).length).toBeGreaterThanOrEqual(60);
      // RFC 7644 §3.4.3: POST /.search over every resource type at once is optional (501 here).
      expect(results.filter((r) => !passing.has(r.status))).toEqual([
        expect.objectContaining({
          status: "SKIPPED",
          title: "search_with_attributes",
          resource_type: "User",
        }),
        expect.objectContaining({
          status: "SKIPPED",
          title: "search_with_attributes",
          resource_type: "Group",
        }),
      ]);
    },
    TIMEOUT,
  );

  it(
    "scim-sanity (strict): everything passes",
    async () => {
      const { stdout } = await run(
        sanity,
        ["probe", server.baseUrl, "--token", server.token, "--i-accept-side-effects", "--json-output"],
        { timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const report = JSON.parse(stdout) as {
        summary: { passed: number; failed: number; errors: number };
        results: { name: string; status: string; message?: string }[];
      };
      expect(report.summary.passed).toBeGreaterThanOrEqual(28);
      expect(report.summary.errors).toBe(0);
      // "PATCH /Groups/{id} add member" adds "fake-member-id": skipped, not added, answered 200 with
      // the group as stored (docs/security.md "SCIM").
      expect(report.results.filter((r) => r.status === "fail")).toEqual([]);
      expect(report.summary.failed).toBe(0);
      // Skipped: the Agent and AgenticApplication resource types of a draft extension Tessera does not serve.
      expect(report.results.filter((r) => r.status === "skip").map((r) => r.name)).toEqual([
        "Agent CRUD Lifecycle",
        "AgenticApplication CRUD Lifecycle",
        "Agent Rapid Lifecycle",
      ]);
    },
    TIMEOUT,
  );
});
