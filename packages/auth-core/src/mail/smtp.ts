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

/**
 * Connections one mailer keeps open to its server, and sends under way at once: 10 keep up with 100
 * mails/s to a local server where 5 fell behind (bench/mail-outbox.ts, docs/scale.md "Mail outbox").
 */
const SMTP_POOL_CONNECTIONS = 10;
/** Mails sent over one connection before it is replaced. */
const SMTP_POOL_MESSAGES = 100;

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
  // Pooled: a few connections kept open and reused for many mails, so a queue drains at the server's
  // pace rather than one TCP and TLS handshake and SMTP greeting per mail (issue 34: 100 mails/s to
  // one server). A connection is closed after `maxMessages` mails or when idle, and a failed one is
  // replaced.
  const transport = createTransport({
    url: options.url,
    pool: true,
    maxConnections: SMTP_POOL_CONNECTIONS,
    maxMessages: SMTP_POOL_MESSAGES,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const turns = createTurns(SMTP_POOL_CONNECTIONS);

  return {
    async send(message: MailMessage): Promise<void> {
      // Building and handing over the message waits for the next turn of the event loop: the mail
      // outbox calls `send` on a request's path, and that request answers first (issue 34).
      await new Promise((resolve) => setImmediate(resolve));
      try {
        await turns.take();
      } catch (cause) {
        const { permanent, answer } = classifySmtpFailure(cause);
        throw new MailSendError("Failed to send mail", { cause, permanent, answer });
      }
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.messageId ? { messageId: message.messageId } : {}),
        });
        turns.give();
      } catch (cause) {
        const failure = classifySmtpFailure(cause);
        // No answer from the server (refused, timed out): the mails waiting behind this one would
        // meet the same, one reconnection at a time; they fail now and the outbox retries them.
        turns.give(failure.answered ? null : cause);
        throw new MailSendError("Failed to send mail", {
          cause,
          permanent: failure.permanent,
          answer: failure.answer,
        });
      }
    },
    close(): void {
      transport.close();
    },
  };
}

/**
 * At most `size` sends handed to the pool at once, the others waiting their turn here, where a
 * failure to reach the server can fail them all at once (`give(error)`). Handed to nodemailer's own
 * queue instead, each would wait for its own failed reconnection, 100 ms apart: a 10-minute outage
 * with a thousand mails queued would hold them for minutes, past the outbox's lease.
 */
function createTurns(size: number): { take(): Promise<void>; give(failure?: unknown): void } {
  let free = size;
  let waiting: { go: () => void; fail: (error: unknown) => void }[] = [];
  return {
    take() {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((go, fail) => waiting.push({ go, fail }));
    },
    give(failure: unknown = null) {
      if (failure !== null && waiting.length > 0) {
        const failed = waiting;
        waiting = [];
        for (const entry of failed) entry.fail(failure);
      }
      const next = waiting.shift();
      if (next) next.go();
      else free++;
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

/**
 * nodemailer's error carries the server's reply code and line when the server answered; `answered`
 * false when it never did (no connection, no greeting, a timeout).
 */
function classifySmtpFailure(cause: unknown): {
  permanent: boolean;
  answer: string | null;
  answered: boolean;
} {
  const { responseCode, response, code, message } = (cause ?? {}) as {
    responseCode?: number;
    response?: string;
    code?: string;
    message?: string;
  };
  if (typeof responseCode === "number" && typeof response === "string") {
    return {
      permanent: responseCode >= 500 && responseCode < 600,
      answer: response.slice(0, 300),
      answered: true,
    };
  }
  // No answer (refused connection, timeout): the error's code and message name only host and port.
  const text = [code, message].filter((part) => typeof part === "string" && part !== "").join(": ");
  return { permanent: false, answer: text === "" ? null : text.slice(0, 300), answered: false };
}
