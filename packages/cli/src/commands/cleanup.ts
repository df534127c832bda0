import type { CleanupResult } from "@tessera/auth-core";
import { Command } from "commander";
import { contextOf, type RunContext, report, withAuth } from "../kit.ts";

export interface CleanupReport {
  removed: CleanupResult;
}

/** `tessera cleanup`: what `auth.cleanup()` removes (expired rows), with counts. */
export async function cleanupAction(run: RunContext): Promise<CleanupReport> {
  return withAuth(run, async ({ auth }) => ({ removed: await auth.cleanup() }));
}

export const cleanupCommand = new Command("cleanup")
  .description(
    "remove expired sessions, verifications, rate-limit windows, key uses, old keys and invitations",
  )
  .action(async (_options, command: Command) => {
    const run = contextOf(command);
    report(run, await cleanupAction(run), (data) => {
      const entries = Object.entries(data.removed) as [string, number][];
      const total = entries.reduce((sum, [, count]) => sum + count, 0);
      return [...entries.map(([kind, count]) => `${kind}\t${count}`), `removed ${total} expired rows`];
    });
  });
