import { Command, Option } from "commander";
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
 * database; idempotent; reports counts and the rows it could not take. Run `tessera migrate up` first.
 */
export async function importAction(run: RunContext, options: ImportOptions): Promise<ImportReport> {
  const { MongoClient } = await import("mongodb");
  const { importFrom } = await import("../importers.ts");
  const client = new MongoClient(options.sourceUri, { serverSelectionTimeoutMS: 5000 });
  try {
    const source = client.db(options.sourceDb);
    return await withAuth(run, async ({ auth }) => {
      await auth.migrate();
      const progress = await startProgress(run, "import");
      const result = await importFrom(options.from, source, auth.context.collections.db, {
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
  .action(async (options: ImportOptions, command: Command) => {
    const run = contextOf(command);
    report(run, await importAction(run, options), (data) => [
      ...Object.entries(data.counts).map(
        ([collection, count]) =>
          `${collection}\t${data.dryRun ? "would copy" : "copied"} ${count.copied}, already there ${count.existing}, refused ${count.refused}`,
      ),
      ...data.refused.slice(0, 50).map((row) => `refused ${row.collection} ${row.id}: ${row.reason}`),
      ...(data.refused.length > 50
        ? [`… and ${data.refused.length - 50} more refused (--json lists them all)`]
        : []),
      `${data.seconds} s, ${data.usersPerSecond} users/s`,
    ]);
  });
