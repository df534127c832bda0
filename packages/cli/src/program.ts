import { Command, Option } from "commander";
import { auditCommand } from "./commands/audit.ts";
import { cleanupCommand } from "./commands/cleanup.ts";
import { completionCommand } from "./commands/completion.ts";
import { createCommand } from "./commands/create.ts";
import { dbCommand } from "./commands/db.ts";
import { doctorCommand } from "./commands/doctor.ts";
import { eventsCommand } from "./commands/events.ts";
import { exportCommand } from "./commands/export.ts";
import { importCommand } from "./commands/import.ts";
import { initCommand } from "./commands/init.ts";
import { invitationsCommand } from "./commands/invitations.ts";
import { mailCommand } from "./commands/mail.ts";
import { migrateCommand } from "./commands/migrate.ts";
import { orgsCommand } from "./commands/orgs.ts";
import { orgsDomainsCommand } from "./commands/orgs-domains.ts";
import { orgsScimCommand } from "./commands/orgs-scim.ts";
import { orgsSsoCommand } from "./commands/orgs-sso.ts";
import { orgsTeamsCommand } from "./commands/orgs-teams.ts";
import { secretCommand } from "./commands/secret.ts";
import { sessionsCommand } from "./commands/sessions.ts";
import { usersCommand } from "./commands/users.ts";
import { usersPasskeysCommand, usersRemovePasskeyCommand } from "./commands/users-passkeys.ts";
import { webhooksCommand } from "./commands/webhooks.ts";
import { addExamples } from "./help-examples.ts";
import { VERSION } from "./version.ts";

const FOOTER = `
Configuration (first found wins):
  database   --uri / MONGODB_URI, the config's database, a running \`tessera db start\` here
  name       --db / TESSERA_DB_NAME, the config's dbName, the URI's path, "tessera"
  config     --config / TESSERA_CONFIG, else tessera.config.ts|mjs|js here or in a parent
  secret     TESSERA_SECRET, the config's secret
  No database configured: admin commands refuse (exit 2) rather than use a throwaway one.

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
    .addOption(
      new Option(
        "--config <file>",
        "the app's options module (default: tessera.config.ts here or above)",
      ).env("TESSERA_CONFIG"),
    )
    // No path into the repository's docs/: an installed CLI ships none (npm pack: bin and dist).
    .option("--json", 'print one JSON document on stdout (an error: { "error": { code, message } })')
    .option("--no-color", "no colours (NO_COLOR and TERM=dumb are honoured too)")
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
    eventsCommand,
    webhooksCommand,
    mailCommand,
    importCommand,
    exportCommand,
    doctorCommand,
    migrateCommand,
    dbCommand,
    cleanupCommand,
    secretCommand,
    completionCommand,
  ]) {
    program.addCommand(command);
  }
  // Subcommands kept in files of their own (a command imports no other command): attached here,
  // once, as the command objects outlive a program (tests build several).
  for (const [parent, sub] of [
    [usersCommand, usersPasskeysCommand],
    [usersCommand, usersRemovePasskeyCommand],
    [orgsCommand, orgsDomainsCommand],
    [orgsCommand, orgsSsoCommand],
    [orgsCommand, orgsScimCommand],
    [orgsCommand, orgsTeamsCommand],
  ] as const) {
    if (!parent.commands.includes(sub)) parent.addCommand(sub);
  }
  addExamples(program);
  inheritSettings(program);
  return program;
}

/**
 * `addCommand` copies no settings: every subcommand throws instead of exiting, hints at --help and
 * lists the global options in its help.
 */
function inheritSettings(command: Command): void {
  for (const sub of command.commands) {
    sub
      .exitOverride()
      .showHelpAfterError("(run with --help for usage)")
      .configureHelp({ showGlobalOptions: true });
    inheritSettings(sub);
  }
}
