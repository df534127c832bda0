/**
 * Pure decisions of the mail outbox (docs/architecture.md "Mail"): when a failed mail is tried
 * again, and what a failure means. No I/O; the clock is passed in.
 */

/** The first retry waits this long; each further one twice the last, up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 5 * 60_000;

/**
 * When a mail that failed its `attempts`-th attempt (1 for the first) at `at` is due again: 15 s,
 * 30 s, 1 min, 2 min, 4 min, then every 5 min until its token expires. An outage of N minutes thus
 * costs each queued mail about N/5 + 5 attempts, not one per poll.
 */
export function findNextMailAttemptAt(attempts: number, at: Date): Date {
  const wait = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
  return new Date(at.getTime() + wait);
}

/** True when the mailed token has expired at `now`: the mail is dropped instead of sent. */
export function isMailExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}

/** The longest failure text kept with a mail. */
const MAX_ERROR_LENGTH = 300;

/**
 * What a failed send means: `permanent` when the server refused the mail for good (mail/mailer.ts
 * MailSendError: an SMTP 5xx), and the text kept as the mail's `lastError` — the server's answer
 * when there was one. Any other error is temporary.
 */
export function describeSendFailure(error: unknown): { permanent: boolean; text: string } {
  const { permanent, answer, message } = (error ?? {}) as {
    permanent?: unknown;
    answer?: unknown;
    message?: unknown;
  };
  const text = typeof answer === "string" ? answer : typeof message === "string" ? message : String(error);
  return { permanent: permanent === true, text: text.slice(0, MAX_ERROR_LENGTH) };
}
