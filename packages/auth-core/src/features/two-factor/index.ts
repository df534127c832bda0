import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { disableTwoFactor } from "./endpoints/disable.ts";
import { enableTwoFactor } from "./endpoints/enable.ts";
import { generateBackupCodes } from "./endpoints/generate-backup-codes.ts";
import { getTotpUri } from "./endpoints/get-totp-uri.ts";
import { sendOtp } from "./endpoints/send-otp.ts";
import { verifyBackupCode } from "./endpoints/verify-backup-code.ts";
import { verifyOtp } from "./endpoints/verify-otp.ts";
import { verifyTotp } from "./endpoints/verify-totp.ts";

export { gateSessionMint, type TwoFactorRedirect } from "./gate.ts";
/** Clears a user's two-factor sign-in lock (lockout.ts): for an administrator's unlock. */
export { resetUserAttempts as clearTwoFactorLock } from "./lockout.ts";
export { deleteUserTwoFactorData, forgetSecondFactorSessions } from "./settings.ts";

const twoFactorList = [
  enableTwoFactor,
  getTotpUri,
  verifyTotp,
  sendOtp,
  verifyOtp,
  generateBackupCodes,
  verifyBackupCode,
  disableTwoFactor,
] as const;
export const twoFactorEndpoints: readonly AnyEndpoint[] = twoFactorList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type TwoFactorEndpoint = (typeof twoFactorList)[number];
