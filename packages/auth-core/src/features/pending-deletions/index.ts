/** The face of pending-deletions: the journal that lets `auth.cleanup()` finish a deletion a crash cut. */
export {
  findPendingDeletion,
  forgetPendingDeletion,
  listPendingDeletions,
  pendingDeletionRowsForChecks,
  recordPendingDeletion,
  recordRowsDeletion,
  releaseRowsClaims,
} from "./store.ts";
