import { checkVerificationOTPContract } from "../../../contracts/passwordless.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { acceptMailedCode } from "../checks.ts";
import { answerCodeCheck, assertEmailOTPEnabled } from "./guards.ts";

/** Whether the code is right, leaving it for the call that uses it; a wrong answer spends a try, a right one does not. */
export const checkVerificationOTP = defineEndpoint(checkVerificationOTPContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ success: true }> {
    assertEmailOTPEnabled(ctx.auth);
    const { body } = ctx;
    answerCodeCheck(
      await acceptMailedCode(ctx.auth, ctx.cookies, {
        purpose: body.type,
        email: body.email,
        code: body.otp,
        consume: false,
      }),
      ctx,
    );
    return { success: true };
  },
});
