import { Command } from "commander";
import { contextOf, noteEmpty, parseCount, type RunContext, readTimeOption, report } from "../kit.ts";
import { resolveOrganization, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

export interface EventsListOptions {
  /** One event type of the catalogue, e.g. member.added. */
  type?: string | undefined;
  /** An organization (id or slug). */
  org?: string | undefined;
  /** The oldest events to list: an ISO 8601 time, or a span back from now (30m, 1h, 7d). */
  since?: string | undefined;
  limit?: number | undefined;
  /** The nextCursor of the page before. */
  cursor?: string | undefined;
}

interface ListedEvent {
  id: string;
  type: string;
  createdAt: string;
  organizationId: string | null;
  userId: string | null;
  data: Record<string, unknown>;
}

export interface EventsListResult {
  events: ListedEvent[];
  nextCursor: string | null;
}

/** `tessera events list`: events, newest first, by type, organization and time (the admin listing). */
export async function eventsListAction(
  run: RunContext,
  options: EventsListOptions,
): Promise<EventsListResult> {
  const since = options.since ? readTimeOption("--since", options.since, new Date()) : undefined;
  return withOperator(run, async (session) => {
    let organizationId: string | undefined;
    if (options.org !== undefined) {
      const org = await resolveOrganization(session, options.org);
      organizationId = org._id.toHexString();
    }
    const { data } = await session.api.listEvents({
      query: {
        ...(options.type ? { type: options.type as never } : {}),
        ...(organizationId ? { organizationId } : {}),
        ...(since ? { since } : {}),
        ...(options.cursor ? { cursor: options.cursor } : {}),
        limit: Math.min(options.limit ?? 50, 100),
      },
      headers: session.headers,
    });
    return data;
  });
}

export const eventsCommand = new Command("events")
  .description("events: every change to users and organizations")
  .addCommand(
    new Command("list")
      .description("events, newest first")
      .option("--type <type>", "only this event type (e.g. member.added)")
      .option("--org <organization>", "only this organization's events (id or slug)")
      .option(
        "--since <time>",
        "only events at or after this time: ISO 8601, or a span back from now (30m, 1h, 7d)",
      )
      .option("--cursor <id>", "the page after this event (the nextCursor of --json)")
      .option("--limit <n>", "events per page (at most 100, default 50)", parseCount("--limit"))
      .action(async (options: EventsListOptions, command: Command) => {
        const run = contextOf(command);
        const listed = await eventsListAction(run, options);
        noteEmpty(run, listed.events.length, "No events.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["WHEN", "TYPE", "ORGANIZATION", "USER", "ID"],
            data.events.map((event) => [
              formatDate(event.createdAt),
              event.type,
              event.organizationId ?? "-",
              event.userId ?? "-",
              event.id,
            ]),
          ),
        );
      }),
  );
