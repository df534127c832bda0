import type { Mailer, MailMessage } from "./mailer.ts";

export type OutboxEntry = MailMessage & { sentAt: Date };

export interface DevOutboxOptions {
  /** Receives the printed mail one line at a time. @default console.info */
  print?: (line: string) => void;
  /** How many of the most recent mails are kept; older ones are dropped. @default 100 */
  limit?: number;
  /** Clock for `sentAt`. @default () => new Date() */
  now?: () => Date;
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
 * A mailer for development and demos, used when no SMTP URL is configured (docs/decisions.md, standalone
 * server): it prints every mail so the link can be copied from the terminal, and keeps the latest ones
 * in memory so a demo app can list them. State lives in the returned object, never in the module, so
 * two auth instances keep separate outboxes.
 */
export function createDevOutbox(options: DevOutboxOptions = {}): DevOutbox {
  const print = options.print ?? ((line: string) => console.info(line));
  const limit = options.limit ?? DEFAULT_LIMIT;
  const now = options.now ?? (() => new Date());
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error("createDevOutbox: options.limit must be a positive integer");
  }
  let entries: OutboxEntry[] = [];

  return {
    async send(message: MailMessage): Promise<void> {
      const entry: OutboxEntry = { ...message, sentAt: now() };
      entries.push(entry);
      if (entries.length > limit) {
        entries = entries.slice(entries.length - limit);
      }
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
    },
  };
}

// The text part is printed rather than the HTML because it carries the same link and reads in a terminal.
function formatOutboxEntry(entry: OutboxEntry): string[] {
  return [
    `[mail] ${entry.kind} to ${entry.to} at ${entry.sentAt.toISOString()}`,
    `Subject: ${entry.subject}`,
    ...entry.text.split("\n").map((line) => `  ${line}`),
  ];
}

// Stored emails are trimmed and lower-cased (docs/decisions.md), so lookups match however the caller typed it.
function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
