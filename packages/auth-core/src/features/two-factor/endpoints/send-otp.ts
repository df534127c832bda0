import { sendTwoFactorOtpContract } from "../../../contracts/two-factor.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { readChallenge } from "../challenge.ts";
import { sendChallengeOtp } from "../otp.ts";

/**
 * POST /two-factor/send-otp → {status: true}: mails a code for the pending sign-in challenge
 * (otp.ts). `trustDevice` is accepted for clients of the widely used API and has no effect here:
 * verify-otp decides it.
 */
export const sendOtp = defineEndpoint(sendTwoFactorOtpContract, {
  async handler(ctx): Promise<{ status: true }> {
    const challenge = await readChallenge(ctx.auth, ctx.cookies);
    await sendChallengeOtp(ctx.auth, challenge);
    return { status: true };
  },
});
