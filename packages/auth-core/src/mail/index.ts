export {
  chooseMailDelivery,
  MAIL_DISABLED_WARNING,
  type MailDelivery,
  type MailDeliverySettings,
} from "./delivery-setting.ts";
export type { Mailer, MailMessage } from "./mailer.ts";
export { createDevOutbox, type DevOutbox } from "./outbox.ts";
export { createSmtpMailer } from "./smtp.ts";
