import type { CleanupResult } from "@tessera/auth-core";
import { Command } from "commander";
import { contextOf, type RunContext, report, withAuth } from "../kit.ts";

export interface CleanupReport {
  removed: CleanupResult;
}

/** `tessera cleanup`: what `auth.cleanup()` removes (expired rows) and finishes (crash leftovers), with counts. */
export async function cleanupAction(run: RunContext): Promise<CleanupReport> {
  return withAuth(run, async ({ auth }) => ({ removed: await auth.cleanup() }));
}

export const cleanupCommand = new Command("cleanup")
  .description(
    "remove expired sessions, verifications, rate-limit windows, key uses, old keys and invitations; finish deletions and accepts a crash interrupted",
  )
  .action(async (_options, command: Command) => {
    const run = contextOf(command);
    report(run, await cleanupAction(run), (data) => {
      const entries = Object.entries(data.removed) as [string, number][];
      const isFinish = ([kind]: [string, number]) => kind.startsWith("finished");
      const sum = (list: [string, number][]) => list.reduce((total, [, count]) => total + count, 0);
      const expired = sum(entries.filter((entry) => !isFinish(entry)));
      const finished = sum(entries.filter(isFinish));
      return [
        ...entries.map(([kind, count]) => `${kind}\t${count}`),
        `removed ${expired} expired rows`,
        ...(finished > 0 ? [`finished ${finished} operations a crash interrupted`] : []),
      ];
    });
  });
