import type { AuditEvent } from "@tessera/auth-core";
import { Command } from "commander";
import { contextOf, noteEmpty, parseCount, type RunContext, report } from "../kit.ts";
import { resolveUserId, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

export interface AuditListOptions {
  /** A user (email or id) who acted. */
  actor?: string | undefined;
  /** A user (email or id) acted on. */
  subject?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface AuditListResult {
  events: AuditEvent[];
  total: number;
  limit: number;
  offset: number;
}

/** `tessera audit list`: the audit trail, newest first, by actor or subject (as the admin page filters). */
export async function auditListAction(run: RunContext, options: AuditListOptions): Promise<AuditListResult> {
  return withOperator(run, async (session) => {
    const actorId = options.actor === undefined ? undefined : await resolveUserId(session, options.actor);
    const subjectId =
      options.subject === undefined ? undefined : await resolveUserId(session, options.subject);
    const { data } = await session.api.listAuditEvents({
      query: {
        ...(actorId ? { actorId } : {}),
        ...(subjectId ? { subjectId } : {}),
        limit: options.limit ?? 50,
        offset: options.offset ?? 0,
      },
      headers: session.headers,
    });
    return data;
  });
}

export const auditCommand = new Command("audit").description("the audit trail").addCommand(
  new Command("list")
    .description("audit events, newest first")
    .option("--actor <user>", "events by this user (email or id)")
    .option("--subject <user>", "events about this user (email or id)")
    .option("--limit <n>", "events per page (at most 100, default 50)", parseCount("--limit"))
    .option("--offset <n>", "skip this many events", parseCount("--offset"))
    .action(async (options: AuditListOptions, command: Command) => {
      const run = contextOf(command);
      const listed = await auditListAction(run, options);
      noteEmpty(run, listed.events.length, "No audit events.");
      report(run, listed, (data) =>
        formatTable(
          run.io,
          ["WHEN", "ACTION", "ACTOR", "SUBJECT", "REASON"],
          data.events.map((event) => [
            formatDate(event.createdAt),
            event.action,
            event.actor ?? event.actorId ?? "-",
            event.subjectId ?? "-",
            event.reason ?? "",
          ]),
        ),
      );
    }),
);
