import type { AuthContext } from "../../context.ts";
import type { UserMail } from "../../contracts/mail-outbox.ts";
import type { MailDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { findInvitationMailStates, listMailsInStates, listUserMails, requeueFailedMails } from "./store.ts";

/**
 * What the lists show of the outbox (contracts/mail-outbox.ts UserMail): states, recipients, kinds
 * and failures, never a body (a body may hold a live link, docs/security.md "Mail outbox").
 */
export type MailSummary = UserMail;

function toMailSummary(doc: MailDoc): MailSummary {
  return {
    id: doc._id.toHexString(),
    kind: doc.kind,
    to: doc.to,
    state: doc.state,
    attempts: doc.attempts,
    lastError: doc.lastError,
    nextAttemptAt: doc.state === "queued" ? doc.nextAttemptAt : null,
    expiresAt: doc.expiresAt,
    createdAt: doc.createdAt,
    sentAt: doc.sentAt,
  };
}

/** The state of each invitation's latest mail, by invitation id (list-invitations). */
export function readInvitationMailStates(
  auth: AuthContext,
  ids: readonly ObjectId[],
): Promise<Map<string, MailDoc["state"]>> {
  return findInvitationMailStates(auth.collections, ids);
}

/** A user's most recent mails, newest first (the admin's user page). */
export async function listRecentUserMails(
  auth: AuthContext,
  userId: ObjectId,
  limit: number,
): Promise<MailSummary[]> {
  return (await listUserMails(auth.collections, userId, limit)).map(toMailSummary);
}

/** Queued and failed mails, oldest first (`tessera mail queue`). */
export async function listPendingMails(auth: AuthContext, limit: number): Promise<MailSummary[]> {
  return (await listMailsInStates(auth.collections, ["queued", "failed"], limit)).map(toMailSummary);
}

/**
 * `tessera mail retry`: failed mails (one, or all) queued again, due now, while their link is
 * still valid. Returns how many.
 */
export function retryFailedMails(
  auth: AuthContext,
  select: { id: ObjectId } | { all: true },
): Promise<number> {
  return requeueFailedMails(auth.collections, select, auth.now());
}
