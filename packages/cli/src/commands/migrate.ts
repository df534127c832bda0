import { Command } from "commander";
import { contextOf, type RunContext, report, withAuth } from "../kit.ts";
import { startProgress } from "../progress.ts";
import { formatDate, formatTable } from "../table.ts";

interface MigrateStatusResult {
  migrations: { id: string; appliedAt: Date | null }[];
  pending: number;
}

/** `tessera migrate status`: every core migration, applied (when) or pending, from `_migrations`. */
export async function migrateStatusAction(run: RunContext): Promise<MigrateStatusResult> {
  return withAuth(run, async ({ auth }) => {
    const { migrationStatus } = await import("@tessera/auth-core/operator");
    const migrations = await migrationStatus(auth);
    return { migrations, pending: migrations.filter((state) => state.appliedAt === null).length };
  });
}

interface MigrateUpResult {
  applied: string[];
  pending: number;
}

/** `tessera migrate up`: applies the pending migrations in order, showing each as it runs. */
export async function migrateUpAction(run: RunContext): Promise<MigrateUpResult> {
  return withAuth(run, async ({ auth, where }) => {
    const { migrateStepByStep, migrationStatus } = await import("@tessera/auth-core/operator");
    const total = (await migrationStatus(auth)).filter((state) => state.appliedAt === null).length;
    const progress = await startProgress(run, "migrate");
    let done = 0;
    const applied = await migrateStepByStep(auth, (id) => progress.step(id, done++, total));
    await progress.finish(
      applied.length === 0 ? `up to date on ${where}` : `applied ${applied.length} on ${where}`,
    );
    return { applied, pending: 0 };
  });
}

const statusCommand = new Command("status")
  .description("list the migrations, applied and pending")
  .action(async (_options, command: Command) => {
    const run = contextOf(command);
    report(run, await migrateStatusAction(run), (data) => [
      ...formatTable(
        run.io,
        ["MIGRATION", "STATE", "APPLIED AT"],
        data.migrations.map((state) => [
          state.id,
          state.appliedAt ? "applied" : "pending",
          formatDate(state.appliedAt),
        ]),
      ),
      `${data.pending} pending`,
    ]);
  });

const upCommand = new Command("up")
  .description("apply the pending migrations (indexes included); idempotent")
  .action(async (_options, command: Command) => {
    const run = contextOf(command);
    report(run, await migrateUpAction(run), (data) =>
      data.applied.length === 0 ? ["nothing to apply"] : data.applied.map((id) => `applied ${id}`),
    );
  });

export const migrateCommand = new Command("migrate")
  .description("the database's migrations")
  .addCommand(statusCommand)
  .addCommand(upCommand);
