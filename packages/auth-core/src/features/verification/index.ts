/** The face of verification: what other features may use (endpoints: endpoints/, registered by features/registry.ts). */

export { moveUserEmailMailingVerification, settleEmailMove } from "./email-state.ts";
export { createSignedUpUser, sendChangeEmailLink, sendVerificationEmailInBackground } from "./service.ts";
/**
 * Single-use tokens kept in the verifications collection: other features store theirs here (reset
 * links, delete-account links, social state) and claim them once (organization invitations).
 */
export {
  claimOneTimeToken,
  consumeVerification,
  createVerification,
  deleteResetTokensOfUser,
  findOneTimeTokens,
  findVerification,
  releaseOneTimeToken,
} from "./store.ts";
export { markMailboxProven } from "./verify-email-service.ts";
