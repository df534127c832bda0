import type { Auth } from "./create-auth.ts";
import { parseId } from "./db/ids.ts";
import { listPendingMails, type MailSummary, retryFailedMails } from "./features/mail-outbox/index.ts";

export type { MailSummary } from "./features/mail-outbox/index.ts";

/**
 * The mail outbox as `tessera mail` sees it (features/mail-outbox): what waits or failed, and
 * failed mails queued again. Bodies are never listed (docs/security.md "Mail outbox").
 */
export interface OperatorMail {
  /** Queued and failed mails, oldest first, at most `limit`. */
  listQueue(limit: number): Promise<MailSummary[]>;
  /**
   * Queues failed mails again, due at once: the one with this id, or every one. Mails whose link
   * expired (or whose body was removed) stay failed. Null for an id that is not a mail id.
   */
  retry(select: { id: string } | { all: true }): Promise<number | null>;
}

export function createOperatorMail(auth: Auth): OperatorMail {
  return {
    listQueue: (limit) => listPendingMails(auth.context, limit),
    async retry(select) {
      if ("all" in select) return retryFailedMails(auth.context, select);
      const id = parseId(select.id);
      return id ? retryFailedMails(auth.context, { id }) : null;
    },
  };
}
