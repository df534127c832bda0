import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` — no TLS, no authentication. */
  url: string;
  mails: ParsedMail[];
  /** Resolves with the first mail to `to` whose subject contains `subject`, waiting up to `timeoutMs`. */
  waitForMail(to: string, subject: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps every mail it receives, parsed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          for (const wake of waiters) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  const mailsTo = (to: string) => mails.filter((mail) => addressesOf(mail).includes(to.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail(to, subject, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mailsTo(to).find((mail) => (mail.subject ?? "").includes(subject));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no "${subject}" mail to ${to} within ${timeoutMs} ms (got ${mails.length} in all)`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function addressesOf(mail: ParsedMail): string[] {
  const fields = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return fields.flatMap((field) => field.value.map((entry) => (entry.address ?? "").toLowerCase()));
}

/** The first link in the mail's text part whose path contains `pathPart`. */
export function linkIn(mail: ParsedMail, pathPart: string): URL {
  const links = (mail.text ?? "").match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const link = links.find((candidate) => candidate.includes(pathPart));
  if (!link) throw new Error(`no ${pathPart} link in mail "${mail.subject}":\n${mail.text}`);
  return new URL(link);
}
