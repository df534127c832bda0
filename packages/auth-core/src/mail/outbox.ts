import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { MAIL_KINDS, type Mailer, type MailMessage } from "./mailer.ts";

type OutboxEntry = MailMessage & { sentAt: Date };

export interface DevOutboxOptions {
  /** Receives the printed mail one line at a time. @default console.info */
  print?: (line: string) => void;
  /** How many of the most recent mails are kept; older ones are dropped. @default 100 */
  limit?: number;
  /** Clock for `sentAt`. @default () => new Date() */
  now?: () => Date;
  /**
   * A JSON Lines file the mails are kept in, so that a restart does not empty the outbox: read back
   * when the outbox is created (the last `limit` readable lines), appended to by each mail, rewritten
   * when it holds twice `limit` lines. Created with mode 0600 in a 0700 directory: mails carry
   * sign-in and reset links. @default undefined (memory only)
   */
  file?: string;
}

export type DevOutbox = Mailer & {
  /** Kept mails, oldest first. */
  messages(): readonly OutboxEntry[];
  /** The most recent mail to this address (compared case-insensitively), or null. */
  latestTo(email: string): OutboxEntry | null;
  clear(): void;
};

const DEFAULT_LIMIT = 100;

/**
 * A mailer for development and demos, used when no SMTP URL is configured (docs/decisions/, standalone
 * server): it prints every mail so the link can be copied from the terminal, and keeps the latest ones
 * in memory (and in `file` when given) so a demo app can list them. State lives in the returned
 * object, never in the module, so two auth instances keep separate outboxes.
 */
export function createDevOutbox(options: DevOutboxOptions = {}): DevOutbox {
  const print = options.print ?? ((line: string) => console.info(line));
  const limit = options.limit ?? DEFAULT_LIMIT;
  const now = options.now ?? (() => new Date());
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error("createDevOutbox: options.limit must be a positive integer");
  }
  let entries: OutboxEntry[] = [];
  let linesInFile = 0;
  // The file is a convenience: a mail that cannot be kept in it is still printed and listed.
  const keep = (write: (file: string) => void) => {
    if (!options.file) return;
    try {
      write(options.file);
    } catch (error) {
      print(`[mail] could not keep the outbox in ${options.file}: ${(error as Error).message}`);
    }
  };

  keep((file) => {
    const kept = readKeptMails(file);
    entries = kept.entries.slice(-limit);
    linesInFile = kept.lines;
  });

  return {
    async send(message: MailMessage): Promise<void> {
      const entry: OutboxEntry = { ...message, sentAt: now() };
      entries.push(entry);
      if (entries.length > limit) {
        entries = entries.slice(entries.length - limit);
      }
      keep((file) => {
        if (linesInFile + 1 >= 2 * limit) {
          rewriteKeptMails(file, entries);
          linesInFile = entries.length;
        } else {
          appendKeptMail(file, entry);
          linesInFile += 1;
        }
      });
      for (const line of formatOutboxEntry(entry)) {
        print(line);
      }
    },
    messages(): readonly OutboxEntry[] {
      return [...entries];
    },
    latestTo(email: string): OutboxEntry | null {
      const wanted = normalizeEmail(email);
      return entries.findLast((entry) => normalizeEmail(entry.to) === wanted) ?? null;
    },
    clear(): void {
      entries = [];
      keep((file) => {
        rewriteKeptMails(file, entries);
        linesInFile = 0;
      });
    },
  };
}

/** The mails of a kept outbox file, oldest first, and its number of lines; a missing file holds none. */
function readKeptMails(file: string): { entries: OutboxEntry[]; lines: number } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], lines: 0 };
    throw error;
  }
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const entries: OutboxEntry[] = [];
  for (const line of lines) {
    const entry = parseKeptMail(line);
    if (entry) entries.push(entry);
  }
  return { entries, lines: lines.length };
}

/** One line of the file as a mail; null for a line that is not one (cut short by a crash, edited). */
function parseKeptMail(line: string): OutboxEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { to, subject, text, html, kind, sentAt } = value as Record<string, unknown>;
  const sent = typeof sentAt === "string" ? new Date(sentAt) : null;
  if (
    typeof to !== "string" ||
    typeof subject !== "string" ||
    typeof text !== "string" ||
    typeof html !== "string" ||
    !MAIL_KINDS.includes(kind as MailMessage["kind"]) ||
    !sent ||
    Number.isNaN(sent.getTime())
  ) {
    return null;
  }
  return { to, subject, text, html, kind: kind as MailMessage["kind"], sentAt: sent };
}

function serializeKeptMail(entry: OutboxEntry): string {
  const { to, subject, text, html, kind, sentAt } = entry;
  return `${JSON.stringify({ to, subject, text, html, kind, sentAt: sentAt.toISOString() })}\n`;
}

function appendKeptMail(file: string, entry: OutboxEntry): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, serializeKeptMail(entry), { mode: 0o600 });
}

/** Replaces the file by `entries` (a new file renamed over the old: never half written). */
function rewriteKeptMails(file: string, entries: readonly OutboxEntry[]): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, entries.map(serializeKeptMail).join(""), { mode: 0o600 });
  renameSync(partial, file);
}

// The text part is printed rather than the HTML because it carries the same link and reads in a terminal.
function formatOutboxEntry(entry: OutboxEntry): string[] {
  return [
    `[mail] ${entry.kind} to ${entry.to} at ${entry.sentAt.toISOString()}`,
    `Subject: ${entry.subject}`,
    ...entry.text.split("\n").map((line) => `  ${line}`),
  ];
}

// Stored emails are trimmed and lower-cased (docs/decisions/), so lookups match however the caller typed it.
function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
