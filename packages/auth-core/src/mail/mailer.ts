/**
 * What the core asks a mailer to deliver. Each `kind` maps to one template (see `templates/`), so a
 * custom mailer can route or tag mails without parsing subjects.
 */
export const MAIL_KINDS = [
  "verify-email",
  "reset-password",
  "change-email",
  "email-changed",
  "api-keys-revoked",
  "delete-account",
  "invitation",
  "two-factor-otp",
  "sign-in-link",
  "email-otp",
  "webhook-endpoint-disabled",
] as const;

export type MailKind = (typeof MAIL_KINDS)[number];

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: MailKind;
  /**
   * The Message-ID to send, `<…@…>` (RFC 5322 §3.6.4): the outbox gives each queued mail one, the
   * same on every attempt, so a receiver (and a test) can tell a retry from a second mail.
   */
  messageId?: string;
}

/**
 * The one seam between the core and mail delivery. `send` rejects when delivery failed; the caller
 * logs the error and answers with a sanitised 5xx (docs/architecture.md, "Errors").
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * A failed `send` that says whether trying again can help: `permanent` when the server refused the
 * mail for good (an SMTP 5xx answer, RFC 5321 §4.2.1, e.g. 550 for an unknown mailbox), and the
 * server's answer line when there was one. The mail outbox (features/mail-outbox) marks a permanent
 * refusal failed at once and retries anything else; a mailer that throws another error is retried.
 */
export class MailSendError extends Error {
  readonly permanent: boolean;
  readonly answer: string | null;
  constructor(message: string, options: { permanent: boolean; answer: string | null; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "MailSendError";
    this.permanent = options.permanent;
    this.answer = options.answer;
  }
}
