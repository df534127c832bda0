import { Command, Option } from "commander";
import { CliError, EXIT } from "../errors.ts";
import type { ImportReport, ImportSource } from "../importers.ts";
import { contextOf, type RunContext, report, withAuth } from "../kit.ts";
import { startProgress } from "../progress.ts";

export interface ImportOptions {
  from: ImportSource;
  sourceUri: string;
  /** The source's database name (default: the one in its URI). */
  sourceDb?: string | undefined;
  dryRun?: boolean | undefined;
}

/**
 * `tessera import --from better-auth|authjs --source-uri <uri> [--dry-run]`: copies users, accounts
 * and (Better Auth) organizations, members, invitations and teams into the configured Tessera
 * database; idempotent; reports counts and the rows it could not take — each with its row number and
 * reason, those the API's own input rules refuse included — and imports the rest.
 */
export async function importAction(run: RunContext, options: ImportOptions): Promise<ImportReport> {
  const { MongoClient } = await import("mongodb");
  const { importFrom } = await import("../importers.ts");
  const { createImportChecks } = await import("@tessera/auth-core/operator");
  const client = new MongoClient(options.sourceUri, { serverSelectionTimeoutMS: 5000 });
  try {
    const source = client.db(options.sourceDb);
    return await withAuth(run, async ({ auth }) => {
      await auth.migrate();
      const progress = await startProgress(run, "import");
      const result = await importFrom(options.from, source, auth.context.collections.db, {
        checks: createImportChecks(auth),
        dryRun: options.dryRun === true,
        progress: (label, done, total) => progress.step(label, done, total),
      });
      await progress.finish(
        `${result.dryRun ? "would copy" : "copied"} ${result.counts.users?.copied ?? 0} users`,
      );
      return result;
    });
  } finally {
    await client.close();
  }
}

export const importCommand = new Command("import")
  .description(
    "move in from Better Auth or Auth.js (their MongoDB collections); a second run copies nothing twice",
  )
  .addOption(
    new Option("--from <library>", "where from").choices(["better-auth", "authjs"]).makeOptionMandatory(),
  )
  .requiredOption("--source-uri <uri>", "MongoDB URI of the app to import from")
  .option("--source-db <name>", "its database name (default: the URI's)")
  .option("--dry-run", "count what would be copied, write nothing")
  .addHelpText(
    "after",
    `
Every row goes through the API's own input rules (addresses, names, image and logo URLs, slugs,
roles): a row the API would refuse is not written. Each refused row is listed with its collection,
its row number in the source collection (1-based, in the order read), its id and the reason.

Exit codes:
  0 every row copied (or already there from an earlier run)
  4 some rows refused, each listed; every other row copied
  2 usage; 1 failure (nothing more is written after it)`,
  )
  .action(async (options: ImportOptions, command: Command) => {
    const run = contextOf(command);
    const result = await importAction(run, options);
    report(run, result, (data) => [
      ...Object.entries(data.counts).map(
        ([collection, count]) =>
          `${collection}\t${data.dryRun ? "would copy" : "copied"} ${count.copied}, already there ${count.existing}, refused ${count.refused}`,
      ),
      ...data.refused
        .slice(0, 50)
        .map((row) => `refused ${row.collection} row ${row.row ?? "?"} (${row.id}): ${row.reason}`),
      ...(data.refused.length > 50
        ? [`… and ${data.refused.length - 50} more refused (--json lists them all)`]
        : []),
      `${data.seconds} s, ${data.usersPerSecond} users/s`,
    ]);
    // The report is printed: exit 4 says some rows were left out, without a second message.
    if (result.refused.length > 0)
      throw new CliError("ROWS_REFUSED", `${result.refused.length} rows refused`, EXIT.refused, {
        reported: true,
      });
  });
