import { sendVerificationOTPContract } from "../../../contracts/passwordless.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { isPasswordResetEnabled } from "../../password/index.ts";
import { mailCode, mailSignIn } from "../mailing.ts";
import { assertEmailOTPEnabled } from "./guards.ts";

/**
 * A sign-in code comes in the sign-in mail (with its link when magic links are on); a verification
 * or reset code in a mail of its own. The same answer for every address.
 */
export const sendVerificationOTP = defineEndpoint(sendVerificationOTPContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ success: true }> {
    const { auth, body } = ctx;
    assertEmailOTPEnabled(auth);
    const sender = { kind: "client", address: ctx.ip } as const;
    if (body.type === "sign-in") {
      answerRefusal(await mailSignIn(auth, body.email, { language: body.language, sender }, {}));
      return { success: true };
    }
    if (body.type === "forget-password" && !isPasswordResetEnabled(auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    await mailCode(auth, body.email, body.type, sender);
    return { success: true };
  },
});
