import type { AuthContext } from "../../context.ts";
import type { MailDoc } from "../../db/documents.ts";
import type { MailKind } from "../../mail/mailer.ts";
import { describeSendFailure, findNextMailAttemptAt, isMailExpired } from "./rules.ts";
import { type MailOutcome, recordMailAttempt } from "./store.ts";

const NO_BODY = { subject: null, text: null, html: null } as const;

/**
 * Sends one mail this instance holds the lease of and records the outcome: sent (its body nulled
 * at once, docs/security.md "Mail outbox"), failed for good on a permanent refusal (the server's
 * answer kept), queued again with backoff on anything else (rules.ts), dropped when its token
 * expired undelivered. The mailer is called before this function first awaits, so a development
 * outbox holds the mail by the time the request that queued it answers. `stored`: the row's insert,
 * awaited before the outcome is recorded.
 */
export function attemptMail(
  auth: AuthContext,
  owner: string,
  mail: MailDoc,
  stored: Promise<void>,
): Promise<void> {
  const at = auth.now();
  if (isMailExpired(mail.expiresAt, at) || mail.text === null) {
    auth.options.logger.warn("mail dropped: its link expired before it could be delivered", {
      id: mail._id.toHexString(),
      kind: mail.kind,
      attempts: mail.attempts,
    });
    return record(auth, owner, mail, {
      state: "dropped",
      nextAttemptAt: null,
      lastError: mail.lastError,
      ...NO_BODY,
    });
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
  const settled = sending.then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return Promise.all([settled, stored]).then(([result]) =>
    record(auth, owner, mail, result.ok ? sentOutcome(auth) : failedOutcome(auth, mail, result.error)),
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

async function record(auth: AuthContext, owner: string, mail: MailDoc, outcome: MailOutcome): Promise<void> {
  await recordMailAttempt(auth.collections, mail._id, owner, outcome, auth.now());
}
