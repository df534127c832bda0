import type { MailSummary } from "@tessera/auth-core/operator";
import { Command } from "commander";
import { notFound, usageError } from "../errors.ts";
import { contextOf, noteEmpty, parseCount, type RunContext, report, withAuth } from "../kit.ts";
import { formatDate, formatTable } from "../table.ts";

export interface MailQueueResult {
  mails: MailSummary[];
}

/** `tessera mail queue`: the outbox's queued and failed mails, oldest first (no bodies). */
export async function mailQueueAction(
  run: RunContext,
  options: { limit?: number | undefined },
): Promise<MailQueueResult> {
  return withAuth(run, async (opened) => {
    const { createOperatorMail } = await import("@tessera/auth-core/operator");
    return { mails: await createOperatorMail(opened.auth).listQueue(Math.min(options.limit ?? 100, 1000)) };
  });
}

export interface MailRetryResult {
  requeued: number;
}

/**
 * `tessera mail retry <id>` or `--failed`: failed mails queued again; the servers' workers send
 * them on their next pass. A mail whose link has expired stays failed (exit 3 for an id).
 */
export async function mailRetryAction(
  run: RunContext,
  id: string | undefined,
  options: { failed?: boolean | undefined },
): Promise<MailRetryResult> {
  if ((id === undefined) === !options.failed) throw usageError("give a mail id or --failed, not both");
  return withAuth(run, async (opened) => {
    const { createOperatorMail } = await import("@tessera/auth-core/operator");
    const requeued = await createOperatorMail(opened.auth).retry(id === undefined ? { all: true } : { id });
    if (requeued === null) throw usageError(`"${id}" is not a mail id`);
    if (id !== undefined && requeued === 0)
      throw notFound("MAIL_NOT_FOUND", `no failed mail ${id} that can still be sent`);
    return { requeued };
  });
}

export const mailCommand = new Command("mail")
  .description("the mail outbox: mails waiting for the mail server, and failed ones")
  .addCommand(
    new Command("queue")
      .description("queued and failed mails, oldest first")
      .option("--limit <n>", "mails to list (at most 1000, default 100)", parseCount("--limit"))
      .action(async (options: { limit?: number }, command: Command) => {
        const run = contextOf(command);
        const listed = await mailQueueAction(run, options);
        noteEmpty(run, listed.mails.length, "No mail is waiting or failed.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["QUEUED", "STATE", "KIND", "TO", "ATTEMPTS", "NEXT", "LAST ERROR", "ID"],
            data.mails.map((mail) => [
              formatDate(mail.createdAt),
              mail.state,
              mail.kind,
              mail.to,
              String(mail.attempts),
              mail.nextAttemptAt ? formatDate(mail.nextAttemptAt) : "-",
              mail.lastError ?? "-",
              mail.id,
            ]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("retry")
      .description("queue failed mails again (one by id, or every one with --failed)")
      .argument("[id]", "the mail's id (from tessera mail queue)")
      .option("--failed", "every failed mail whose link is still valid")
      .action(async (id: string | undefined, options: { failed?: boolean }, command: Command) => {
        const run = contextOf(command);
        const done = await mailRetryAction(run, id, options);
        report(run, done, (data) => [`${data.requeued} mail(s) queued again.`]);
      }),
  );
