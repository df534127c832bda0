import { createTransport } from "nodemailer";
import { type Mailer, type MailMessage, MailSendError } from "./mailer.ts";

export interface SmtpMailerOptions {
  /** Connection URL, e.g. `smtp://user:pass@smtp.example.com:587` or `smtps://…:465`. */
  url: string;
  /** Sender address for every mail, e.g. `"Acme <no-reply@acme.test>"`. */
  from: string;
  /**
   * How long, in milliseconds, the server may take to accept the connection, to greet, and to
   * answer each command; past it the attempt fails and the mail outbox tries again later. @default 10000
   */
  timeoutMs?: number;
}

export type SmtpMailer = Mailer & { close(): void };

/**
 * Delivers mail through one SMTP server. Configuration mistakes throw here, when the auth instance is
 * created; delivery failures reject `send` with a MailSendError "Failed to send mail" and the SMTP
 * error as `cause`, so that the message shown to users never carries server details; the error says
 * whether the server refused the mail for good and carries its answer for the outbox's record.
 */
export function createSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  assertSmtpUrl(options.url);
  if (options.from.trim() === "") {
    throw new Error("createSmtpMailer: options.from must be a sender address");
  }
  const timeout = options.timeoutMs ?? 10_000;
  const transport = createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });

  return {
    async send(message: MailMessage): Promise<void> {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.messageId ? { messageId: message.messageId } : {}),
        });
      } catch (cause) {
        throw new MailSendError("Failed to send mail", { cause, ...classifySmtpFailure(cause) });
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

/** nodemailer's error carries the server's reply code and line when the server answered. */
function classifySmtpFailure(cause: unknown): { permanent: boolean; answer: string | null } {
  const { responseCode, response, code, message } = (cause ?? {}) as {
    responseCode?: number;
    response?: string;
    code?: string;
    message?: string;
  };
  if (typeof responseCode === "number" && typeof response === "string") {
    return { permanent: responseCode >= 500 && responseCode < 600, answer: response.slice(0, 300) };
  }
  // No answer (refused connection, timeout): the error's code and message name only host and port.
  const text = [code, message].filter((part) => typeof part === "string" && part !== "").join(": ");
  return { permanent: false, answer: text === "" ? null : text.slice(0, 300) };
}
