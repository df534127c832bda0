import { Command, Option } from "commander";
import { auditCommand } from "./commands/audit.ts";
import { cleanupCommand } from "./commands/cleanup.ts";
import { dbCommand } from "./commands/db.ts";
import { doctorCommand } from "./commands/doctor.ts";
import { exportCommand } from "./commands/export.ts";
import { importCommand } from "./commands/import.ts";
import { createCommand, initCommand } from "./commands/init.ts";
import { invitationsCommand } from "./commands/invitations.ts";
import { migrateCommand } from "./commands/migrate.ts";
import { orgsCommand } from "./commands/orgs.ts";
import { secretCommand } from "./commands/secret.ts";
import { sessionsCommand } from "./commands/sessions.ts";
import { usersCommand } from "./commands/users.ts";
import { VERSION } from "./version.ts";

export { VERSION } from "./version.ts";

const FOOTER = `
Configuration:
  --uri / MONGODB_URI, --db / TESSERA_DB_NAME, --config (the app's options module), TESSERA_SECRET.
  With none of them: the database of a running \`tessera db start\`, else a throwaway embedded one.

Exit codes:
  0 ok, 1 failure, 2 usage (or a destructive command without --yes and no terminal),
  3 not found, 4 refused by a rule.`;

/** The `tessera` command tree. Command modules load nothing heavy until their action runs. */
export function createProgram(): Command {
  const program = new Command("tessera")
    .description(
      "Tessera from a terminal: migrations, the embedded database, administration and health checks",
    )
    .version(VERSION, "-v, --version")
    .addOption(new Option("--uri <uri>", "MongoDB connection string").env("MONGODB_URI"))
    .addOption(new Option("--db <name>", "database name").env("TESSERA_DB_NAME"))
    .option("--config <file>", "the app's Tessera options module (default export)")
    .option("--json", "print one JSON document on stdout (stable shapes, see the README)")
    .option("--no-color", "no colours (NO_COLOR is honoured too)")
    .addHelpText("after", FOOTER)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  for (const command of [
    initCommand,
    createCommand,
    usersCommand,
    sessionsCommand,
    orgsCommand,
    invitationsCommand,
    auditCommand,
    importCommand,
    exportCommand,
    doctorCommand,
    migrateCommand,
    dbCommand,
    cleanupCommand,
    secretCommand,
  ]) {
    program.addCommand(command);
  }
  inheritErrorHandling(program);
  return program;
}

/** `addCommand` copies no settings: every subcommand throws instead of exiting, and hints at --help. */
function inheritErrorHandling(command: Command): void {
  for (const sub of command.commands) {
    sub.exitOverride().showHelpAfterError("(run with --help for usage)");
    inheritErrorHandling(sub);
  }
}
