import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { UserExport } from "@tessera/auth-core";
import { Command } from "commander";
import { notFound } from "../errors.ts";
import { writeLine } from "../io.ts";
import { contextOf, type RunContext, withAuth } from "../kit.ts";

export type { UserExport };

/**
 * Everything Tessera holds about one user, as JSON: the core's export (`exportUserByEmail` of
 * @tessera/auth-core/operator), the same the user downloads from GET /export-user-data. No
 * secret, and no staff detail of what administrators did to the user (who, from where, internal
 * notes such as a ban's reason): the data subject may be handed this file as it is.
 */
export async function exportAction(run: RunContext, email: string): Promise<UserExport> {
  return withAuth(run, async ({ auth }) => {
    const { exportUserByEmail } = await import("@tessera/auth-core/operator");
    const data = await exportUserByEmail(auth, email);
    if (!data) throw notFound("USER_NOT_FOUND", `no user with the email ${email}`);
    return data;
  });
}

export const exportCommand = new Command("export")
  .description(
    "write everything Tessera holds about one user as JSON, as the user's own download gives it (no secrets, no staff details)",
  )
  .requiredOption("--user <email>", "the user's email")
  .option("-o, --output <file>", "write to this file instead of stdout")
  .action(async (options: { user: string; output?: string }, command: Command) => {
    const run = contextOf(command);
    const data = await exportAction(run, options.user);
    const text = JSON.stringify(data, null, 2);
    if (options.output) {
      const file = resolve(run.io.cwd, options.output);
      await writeFile(file, `${text}\n`, { mode: 0o600 });
      if (run.json) writeLine(run.io.stdout, JSON.stringify({ file }));
      else writeLine(run.io.stderr, `wrote ${file}`);
    } else writeLine(run.io.stdout, text);
  });
