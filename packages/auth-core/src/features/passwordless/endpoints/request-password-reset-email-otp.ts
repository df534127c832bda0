import {
  forgetPasswordEmailOTPContract,
  requestPasswordResetEmailOTPContract,
} from "../../../contracts/passwordless.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { isPasswordResetEnabled } from "../../password/index.ts";
import { mailCode } from "../mailing.ts";
import { assertEmailOTPEnabled } from "./guards.ts";

/** Mails a reset code to an existing user; the same answer for every address. */
export const requestPasswordResetEmailOTP = defineEndpoint(requestPasswordResetEmailOTPContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ success: true }> {
    assertEmailOTPEnabled(ctx.auth);
    if (!isPasswordResetEnabled(ctx.auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    await mailCode(ctx.auth, ctx.body.email, "forget-password", { kind: "client", address: ctx.ip });
    return { success: true };
  },
});

/** Better Auth's older path of the same call; identical behaviour. */
export const forgetPasswordEmailOTP = defineEndpoint(forgetPasswordEmailOTPContract, {
  fieldErrors: requestPasswordResetEmailOTP.fieldErrors,
  handler: requestPasswordResetEmailOTP.handler,
});
