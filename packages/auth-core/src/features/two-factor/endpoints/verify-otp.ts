import { verifyTwoFactorOtpContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { completeChallenge, type SignInCompleted } from "../challenge.ts";
import { acceptChallengeOtp } from "../otp.ts";
import { admitCodeAttemptOrSay, answerCompletion, requireChallenge } from "./guards.ts";

/**
 * POST /two-factor/verify-otp {code, trustDevice?} → {token, user}: completes the sign-in with the
 * code send-otp mailed for this challenge. Expired code → 400 OTP_HAS_EXPIRED; wrong → 401.
 */
export const verifyOtp = defineEndpoint(verifyTwoFactorOtpContract, {
  fieldErrors: { code: "INVALID_CODE" },
  async handler(ctx): Promise<SignInCompleted> {
    const { auth, body } = ctx;
    const challenge = await requireChallenge(auth, ctx.cookies);
    if (!auth.options.twoFactor.otpEnabled) throw new AuthError("OTP_NOT_ENABLED");
    await admitCodeAttemptOrSay(ctx, challenge, "code");
    const check = await acceptChallengeOtp(auth, challenge, body.code);
    if (check === "expired") throw new AuthError("OTP_HAS_EXPIRED");
    if (check === "invalid") throw new AuthError("INVALID_CODE");
    return answerCompletion(auth, await completeChallenge(auth, ctx, challenge, body.trustDevice === true));
  },
});
