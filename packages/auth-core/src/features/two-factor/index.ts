/** The face of two-factor: what other features and create-auth.ts may use (endpoints: endpoints/, registered by features/registry.ts). */
export { gateSessionMint, type TwoFactorRedirect } from "./gate.ts";
export {
  deleteUserTwoFactorData,
  forgetSecondFactorSessions,
  removeTwoFactorEnrollment,
} from "./settings.ts";
/** The user's data export (features/user-export); `tessera doctor`'s reads (operator-checks.ts). */
export { findTwoFactor, twoFactorRowsForChecks } from "./store.ts";
