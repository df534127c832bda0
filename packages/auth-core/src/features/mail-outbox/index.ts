/**
 * The face of the mail outbox (docs/architecture.md "Mail"): create-auth.ts makes one per instance,
 * features/mail-dispatch.ts queues through it, the lists (list-invitations, the admin's user page,
 * `tessera mail`) read through listing.ts.
 */

export {
  listPendingMails,
  listRecentUserMails,
  type MailSummary,
  readInvitationMailStates,
  retryFailedMails,
} from "./listing.ts";
export { createMailOutbox } from "./outbox.ts";
/** For `auth.cleanup()` (features/cleanup.ts). */
export { deleteOldMails } from "./store.ts";
export type { MailOutbox, QueuedMailContext } from "./types.ts";
