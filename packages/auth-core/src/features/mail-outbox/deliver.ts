import type { AuthContext } from "../../context.ts";
import type { MailDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { MailKind } from "../../mail/mailer.ts";
import { describeSendFailure, findNextMailAttemptAt, isMailExpired } from "./rules.ts";
import { type MailOutcome, recordMailAttempts } from "./store.ts";

const NO_BODY = { subject: null, text: null, html: null } as const;

/**
 * Sends one mail this instance holds the lease of and answers the outcome to record: sent (its body
 * nulled at once, docs/security.md "Mail outbox"), failed for good on a permanent refusal (the
 * server's answer kept), queued again with backoff on anything else (rules.ts), dropped when its
 * token expired undelivered. Never rejects. The mailer is called before this function returns, so a
 * development outbox holds the mail by the time the request that queued it answers.
 */
export function sendHeldMail(auth: AuthContext, mail: MailDoc): Promise<MailOutcome> {
  const at = auth.now();
  if (isMailExpired(mail.expiresAt, at) || mail.text === null) {
    auth.options.logger.warn("mail dropped: its link expired before it could be delivered", {
      id: mail._id.toHexString(),
      kind: mail.kind,
      attempts: mail.attempts,
    });
    return Promise.resolve({ state: "dropped", nextAttemptAt: null, lastError: mail.lastError, ...NO_BODY });
  }
  let sending: Promise<void>;
  try {
    sending = Promise.resolve(
      auth.mailer.send({
        to: mail.to,
        kind: mail.kind as MailKind,
        subject: mail.subject ?? "",
        text: mail.text,
        html: mail.html ?? "",
        messageId: `<${mail._id.toHexString()}@tessera.outbox>`,
      }),
    );
  } catch (error) {
    sending = Promise.reject(error);
  }
  return sending.then(
    () => sentOutcome(auth),
    (error: unknown) => failedOutcome(auth, mail, error),
  );
}

function sentOutcome(auth: AuthContext): MailOutcome {
  return { state: "sent", nextAttemptAt: null, lastError: null, sentAt: auth.now(), ...NO_BODY };
}

function failedOutcome(auth: AuthContext, mail: MailDoc, error: unknown): MailOutcome {
  const failure = describeSendFailure(error);
  const attempts = mail.attempts + 1;
  auth.options.logger.warn(failure.permanent ? "mail refused by the server" : "mail not delivered yet", {
    id: mail._id.toHexString(),
    kind: mail.kind,
    attempts,
    error: failure.text,
  });
  if (failure.permanent) return { state: "failed", nextAttemptAt: null, lastError: failure.text };
  return {
    state: "queued",
    nextAttemptAt: findNextMailAttemptAt(attempts, auth.now()),
    lastError: failure.text,
  };
}

/** Records outcomes of attempts made under `owner`'s lease; resolves when this one is written. */
export type OutcomeRecorder = (auth: AuthContext, id: ObjectId, outcome: MailOutcome) => Promise<void>;

/**
 * Group commit of attempt outcomes: the first outcome is written at once; those that arrive while
 * a write is under way are written together by the next one (one bulk command). Idle, a mail's
 * outcome is written as soon as its send ends; under load, one command records many sends
 * (issue 34: 100 mails/s on the embedded database).
 */
export function createOutcomeRecorder(owner: string): OutcomeRecorder {
  let waiting: { id: ObjectId; outcome: MailOutcome; done: () => void; failed: (e: unknown) => void }[] = [];
  let writing = false;
  const flush = async (auth: AuthContext) => {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await recordMailAttempts(auth.collections, owner, batch, auth.now());
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    writing = false;
  };
  return (auth, id, outcome) =>
    new Promise<void>((done, failed) => {
      waiting.push({ id, outcome, done, failed });
      if (!writing) void flush(auth);
    });
}
