import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { disableTwoFactor } from "./disable.ts";
import { enableTwoFactor } from "./enable.ts";
import { generateBackupCodes } from "./generate-backup-codes.ts";
import { getTotpUri } from "./get-totp-uri.ts";
import { sendOtp } from "./send-otp.ts";
import { verifyBackupCode } from "./verify-backup-code.ts";
import { verifyOtp } from "./verify-otp.ts";
import { verifyTotp } from "./verify-totp.ts";

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
