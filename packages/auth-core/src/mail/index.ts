export { escapeHtml } from "./escape-html.ts";
export type { Mailer, MailKind, MailMessage } from "./mailer.ts";
export { createDevOutbox, type DevOutbox, type DevOutboxOptions, type OutboxEntry } from "./outbox.ts";
export { createSmtpMailer, type SmtpMailer, type SmtpMailerOptions } from "./smtp.ts";
export { renderMail } from "./templates/index.ts";
export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./templates/language.ts";
export type { MailDataByKind, RenderedMail } from "./templates/types.ts";
