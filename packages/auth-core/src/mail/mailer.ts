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
}

/**
 * The one seam between the core and mail delivery. `send` rejects when delivery failed; the caller
 * logs the error and answers with a sanitised 5xx (docs/architecture.md, "Errors").
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
