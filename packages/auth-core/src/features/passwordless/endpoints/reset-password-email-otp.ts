import { resetPasswordEmailOTPContract } from "../../../contracts/passwordless.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { isPasswordResetEnabled, setPasswordByMailProof } from "../../password/index.ts";
import { rememberKnownDevice } from "../../sign-in-throttle/index.ts";
import { assertPasswordAllowed } from "../../users/index.ts";
import { acceptMailedCode } from "../checks.ts";
import { answerCodeCheck, assertEmailOTPEnabled } from "./guards.ts";

/**
 * A password reset by mailed code, with the consequences of a reset link (features/password): the
 * password rules first, so a refused password does not spend the code; then the code; then the
 * new password, and every session of the account ends.
 */
export const resetPasswordEmailOTP = defineEndpoint(resetPasswordEmailOTPContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ success: true }> {
    const { auth, body } = ctx;
    assertEmailOTPEnabled(auth);
    if (!isPasswordResetEnabled(auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    await assertPasswordAllowed(auth, body.password, { email: body.email });
    const { user, device } = answerCodeCheck(
      await acceptMailedCode(auth, ctx.cookies, {
        purpose: "forget-password",
        email: body.email,
        code: body.otp,
        consume: true,
      }),
      ctx,
    );
    // Only an existing user's code was mailed; an address nobody has holds a code nobody knows.
    if (!user) throw new AuthError("INVALID_OTP");
    answerRefusal(await setPasswordByMailProof(auth, user, body.password));
    // As after a reset link: the device that used the mail becomes a known device.
    rememberKnownDevice(auth, ctx.cookies, user._id, device);
    return { success: true };
  },
});
