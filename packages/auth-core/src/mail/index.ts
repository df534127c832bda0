export type { Mailer, MailMessage } from "./mailer.ts";
export { createDevOutbox, type DevOutbox } from "./outbox.ts";
export { createSmtpMailer } from "./smtp.ts";
