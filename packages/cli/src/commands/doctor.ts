import { Command } from "commander";
import { CliError, EXIT } from "../errors.ts";
import type { Finding } from "../invariants.ts";
import { paint } from "../io.ts";
import { contextOf, type RunContext, report, withAuth } from "../kit.ts";
import { startProgress } from "../progress.ts";

export interface DoctorResult {
  /** True when nothing is left to repair (after --fix). */
  ok: boolean;
  /** The database checked: "mongodb://host/… (database app)", credentials removed. */
  where: string;
  /** The options module read, or null. */
  config: string | null;
  findings: Finding[];
}

/**
 * `tessera doctor [--fix]`: the configuration (secret, pending migrations) and the data's invariants
 * (invariants.ts), each with a count; --fix repairs what is safe (orphan rows, stale active
 * organizations, pending migrations) and reports it.
 */
export async function doctorAction(
  run: RunContext,
  options: { fix?: boolean | undefined },
): Promise<DoctorResult> {
  const fix = options.fix === true;
  return withAuth(run, async ({ auth, where, config, secret }) => {
    const progress = await startProgress(run, "doctor");
    const findings: Finding[] = [];
    progress.step("configuration", 0, 3);
    const secretCheck = `the secret (TESSERA_SECRET, else the config's) has 32 characters or more; \`tessera secret\` makes one${secret ? ` — ${secret.from === "config" ? "the config's" : "TESSERA_SECRET"}: ${secret.length} characters` : " — none set"}`;
    findings.push({
      check: "secret",
      description: secretCheck,
      passed: secretCheck,
      count: secret && secret.length >= 32 ? 0 : 1,
      fixable: false,
      fixed: 0,
      examples: [],
    });
    progress.step("migrations", 1, 3);
    const { migrationStatus } = await import("@tessera/auth-core/operator");
    const pending = (await migrationStatus(auth))
      .filter((state) => state.appliedAt === null)
      .map((state) => state.id);
    findings.push({
      check: "pending-migrations",
      description: "migrations not yet applied (tessera migrate up)",
      passed: "none pending",
      count: pending.length,
      fixable: true,
      fixed: fix && pending.length > 0 ? (await auth.migrate()).length : 0,
      examples: pending.slice(0, 3),
    });
    progress.step("data invariants", 2, 3);
    const { checkDataInvariants } = await import("../invariants.ts");
    findings.push(
      ...(await checkDataInvariants(auth.context.collections.db, {
        fix,
        creatorRole: auth.context.options.organization.creatorRole,
      })),
    );
    const ok = findings.every((finding) => finding.count === finding.fixed);
    const failing = findings.filter((finding) => finding.count !== finding.fixed).length;
    await progress.finish(
      failing === 0
        ? `${findings.length} checks passed`
        : `${failing} of ${findings.length} checks found problems`,
    );
    return { ok, where, config, findings };
  });
}

/**
 * A passing check in words that read as passing: "no sessions of users that no longer exist", not
 * the problem's description alone (its repair hint in brackets has nothing to repair).
 */
function passedText(finding: Finding): string {
  return finding.passed ?? `no ${finding.description.replace(/ \([^)]*\)$/, "")}`;
}

export const doctorCommand = new Command("doctor")
  .description("check the configuration and the data's invariants; --fix repairs what is safe")
  .option("--fix", "repair what is safe to repair, and say what was done")
  .action(async (options: { fix?: boolean }, command: Command) => {
    const run = contextOf(command);
    const result = await doctorAction(run, options);
    report(run, result, (data) => [
      `database  ${data.where}`,
      `config    ${data.config ?? "none (no tessera.config.ts here or above; --config or TESSERA_CONFIG names one)"}`,
      ...data.findings.map((finding) => {
        const mark =
          finding.count === 0
            ? paint(run.io, "green", "ok")
            : finding.fixed === finding.count
              ? paint(run.io, "yellow", "fixed")
              : paint(run.io, "red", "FAIL");
        const detail =
          finding.count === 0
            ? ""
            : ` — ${finding.count} found${finding.fixed > 0 ? `, ${finding.fixed} repaired` : finding.fixable ? " (--fix repairs)" : ""}${finding.examples.length > 0 ? ` e.g. ${finding.examples.join(", ")}` : ""}`;
        return `${mark}\t${finding.check}: ${finding.count === 0 ? passedText(finding) : finding.description}${detail}`;
      }),
    ]);
    if (!result.ok)
      throw new CliError("DOCTOR_FINDINGS", "doctor found problems that are still there", EXIT.failure);
  });
