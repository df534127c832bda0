import { userInfo } from "node:os";
import type { Command } from "commander";
import { type ConnectionOptions, type OpenedAuth, openAuth, unreachable } from "./connection.ts";
import { CliError, EXIT, usageError } from "./errors.ts";
import { type Io, processIo, writeJson, writeLine } from "./io.ts";

/** The options of `tessera` itself, valid before or after any command. */
interface GlobalOptions extends ConnectionOptions {
  json?: boolean | undefined;
  color?: boolean | undefined;
}

/** What every action receives beside its own options. */
export interface RunContext {
  io: Io;
  json: boolean;
  connection: ConnectionOptions;
}

export function contextOf(command: Command): RunContext {
  const globals = command.optsWithGlobals<GlobalOptions>();
  return {
    io: processIo(globals.color !== false),
    json: globals.json === true,
    connection: { uri: globals.uri, db: globals.db, config: globals.config },
  };
}

/** Opens the core for the length of `work`, and closes it (and any embedded database) after. */
export async function withAuth<T>(run: RunContext, work: (opened: OpenedAuth) => Promise<T>): Promise<T> {
  const opened = await openAuth(run.connection, run.io);
  try {
    return await work(opened);
  } catch (error) {
    throw unreachable(error, opened.where) ?? error;
  } finally {
    await opened.close();
  }
}

/** The audit trail's actor for this terminal: `cli:<os user>` (TESSERA_OPERATOR overrides the user part). */
export function operatorName(io: Io): string {
  let name = io.env.TESSERA_OPERATOR;
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = io.env.USER ?? "unknown";
    }
  }
  return `cli:${name.replace(/[^\w.@-]/g, "_").slice(0, 90)}`;
}

/**
 * A destructive command goes on only when confirmed: `--yes`, or a yes on a terminal. Without a
 * terminal and without `--yes` it refuses (exit 2), so a script never hangs on a question.
 */
export async function confirmOrRefuse(
  run: RunContext,
  yes: boolean | undefined,
  question: string,
): Promise<void> {
  if (yes) return;
  if (!run.io.interactive || run.json) {
    const why = run.io.env.TERM === "dumb" ? "TERM=dumb: no prompt" : "no terminal to ask on";
    throw usageError(`${question.replace(/\?$/, "")}: refused without --yes (${why})`);
  }
  const prompts = await import("@clack/prompts");
  const answer = await prompts.confirm({
    message: question,
    initialValue: false,
    input: run.io.stdin,
    output: run.io.stderr,
  });
  if (prompts.isCancel(answer) || answer !== true) throw new CliError("CANCELLED", "cancelled", EXIT.failure);
}

/** Prints a result: the JSON document with --json, else the lines `text` gives. */
export function report<T>(run: RunContext, data: T, text: (data: T) => string[]): void {
  if (run.json) {
    writeJson(run.io, data);
    return;
  }
  for (const line of text(data)) writeLine(run.io.stdout, line);
}

/** An empty list says so on stderr ("No users."), so stdout stays data only (nothing to count or cut). */
export function noteEmpty(run: RunContext, count: number, message: string): void {
  if (count === 0 && !run.json) writeLine(run.io.stderr, message);
}

/** A positive integer option. */
export function parseCount(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0)
      throw usageError(`${name} must be a whole number, got ${value}`);
    return number;
  };
}

const SPAN = /^(\d+)([smhd])$/;
const SPAN_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A time option (`--since`, `--until`) as the ISO time the core takes: a span back from `now`
 * ("1h", as an operator types it) or an ISO 8601 time; anything else is a usage error (exit 2)
 * naming both forms, never an "Invalid time value" stack.
 */
export function readTimeOption(name: string, value: string, now: Date): string {
  const span = SPAN.exec(value.trim());
  if (span)
    return new Date(now.getTime() - Number(span[1]) * SPAN_MS[span[2] as keyof typeof SPAN_MS]).toISOString();
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw usageError(
      `${name} must be an ISO 8601 time (2026-11-29T15:00:00Z) or a span back from now (30m, 1h, 7d), got ${value}`,
    );
  return at.toISOString();
}
