import { createTransport } from "nodemailer";
import type { Mailer, MailMessage } from "./mailer.ts";

export interface SmtpMailerOptions {
  /** Connection URL, e.g. `smtp://user:pass@smtp.example.com:587` or `smtps://…:465`. */
  url: string;
  /** Sender address for every mail, e.g. `"Acme <no-reply@acme.test>"`. */
  from: string;
}

export type SmtpMailer = Mailer & { close(): void };

/**
 * Delivers mail through one SMTP server. Configuration mistakes throw here, when the auth instance is
 * created; delivery failures reject `send` with "Failed to send mail" and the SMTP error as `cause`,
 * so that the message shown to users never carries server details.
 */
export function createSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  assertSmtpUrl(options.url);
  if (options.from.trim() === "") {
    throw new Error("createSmtpMailer: options.from must be a sender address");
  }
  const transport = createTransport(options.url);

  return {
    async send(message: MailMessage): Promise<void> {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      } catch (cause) {
        throw new Error("Failed to send mail", { cause });
      }
    },
    close(): void {
      transport.close();
    },
  };
}

// nodemailer also reads strings such as "direct" or a sendmail path; only SMTP URLs are supported here,
// and the error must not echo the URL because it usually contains the SMTP password.
function assertSmtpUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error("createSmtpMailer: options.url is not a valid URL");
  }
  if (protocol !== "smtp:" && protocol !== "smtps:") {
    throw new Error("createSmtpMailer: options.url must start with smtp:// or smtps://");
  }
}
