/** The face of pending-deletions: the journal that lets `auth.cleanup()` finish a deletion a crash cut. */
export { forgetPendingDeletion, listPendingDeletions, recordPendingDeletion } from "./store.ts";
