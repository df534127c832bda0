export type { Mailer, MailMessage } from "./mailer.ts";
export { createDevOutbox, type DevOutbox } from "./outbox.ts";
export { createSmtpMailer } from "./smtp.ts";
export { renderMail } from "./templates/index.ts";
export type { Language } from "./templates/language.ts";
