import type { ObjectId } from "../../db/ids.ts";
import type { MailKind, MailMessage } from "../../mail/mailer.ts";

/** What ties a queued mail to its token and to the lists that show it. */
export interface QueuedMailContext {
  /** The mailed token's expiry: undelivered by then, the mail is dropped. */
  expiresAt: Date;
  userId?: ObjectId | null;
  organizationId?: ObjectId | null;
  invitationId?: ObjectId | null;
  /**
   * Store the mail beside the answer rather than before it: the insert is not awaited and its
   * command is not the request's (mails whose answer must cost the same for every address,
   * docs/security.md "Enumeration"). The send still starts before `queue` returns. dispatchMail
   * sets it for a mail sent in the background unless the caller says otherwise (false: a caller
   * that stores a stand-in for the mails it does not send, features/mail-dispatch.ts queueNoMail).
   */
  beside?: boolean;
  /**
   * Stores the token the mail's link carries, after the mail's row and before its send (not with
   * `beside`). A crash between the two leaves a mail whose link answers as an unknown token, never a
   * live token nobody was mailed (issue 34); when it fails, the mail is dropped and the error thrown.
   */
  linkStored?: () => Promise<void>;
}

/**
 * One createAuth instance's share of the durable mail outbox (docs/architecture.md "Mail"). `queue`
 * stores a rendered mail with this instance's lease on it (one insert, the only command it adds to
 * the request's path) and sends it at once in the background; when that attempt fails, or this
 * instance dies, the row comes due and any instance's worker claims it (db/lease-claims.ts) and
 * tries again with backoff until its token expires.
 */
export interface MailOutbox {
  queue(message: MailMessage, context: QueuedMailContext): Promise<void>;
  /**
   * Stores the inert row that stands in for a mail that is not sent, where the answer must cost
   * the same commands as one that queues a mail (a password reset for an unknown address:
   * docs/security.md "Enumeration"). The row names no address and no user, is never sent, listed or
   * counted as a failure (state `dropped`, `to` empty), and `auth.cleanup()` removes it.
   */
  storeUnsentMail(kind: MailKind): Promise<void>;
  start(): void;
  /** Stops the worker and waits for the sends in flight (their outcomes recorded). */
  stop(): Promise<void>;
  /** One pass now: every due mail claimed and attempted. Resolves when done (tests, the CLI). */
  runPass(): Promise<void>;
  /** Resolves when the sends started so far have been recorded. */
  settle(): Promise<void>;
}
