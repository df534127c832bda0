/** The face of pending-deletions: the journal that lets `auth.cleanup()` finish a deletion a crash cut. */
export {
  forgetPendingDeletion,
  listPendingDeletions,
  pendingDeletionRowsForChecks,
  recordPendingDeletion,
} from "./store.ts";
