/**
 * The face of the mail outbox (docs/architecture.md "Mail"): create-auth.ts makes one per instance,
 * features/mail-dispatch.ts queues through it, the lists read through the listing functions.
 */
export { createMailOutbox } from "./outbox.ts";
/** For `auth.cleanup()` (features/cleanup.ts). */
export { deleteOldMails } from "./store.ts";
export type { MailOutbox, QueuedMailContext } from "./types.ts";
