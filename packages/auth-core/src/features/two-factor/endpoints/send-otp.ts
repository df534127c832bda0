import { sendTwoFactorOtpContract } from "../../../contracts/two-factor.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { sendChallengeOtp } from "../otp.ts";
import { requireChallenge } from "./guards.ts";

/**
 * POST /two-factor/send-otp → {status: true}: mails a code for the pending sign-in challenge
 * (otp.ts). `trustDevice` is accepted for clients of the widely used API and has no effect here:
 * verify-otp decides it.
 */
export const sendOtp = defineEndpoint(sendTwoFactorOtpContract, {
  async handler(ctx): Promise<{ status: true }> {
    const challenge = await requireChallenge(ctx.auth, ctx.cookies);
    answerRefusal(await sendChallengeOtp(ctx.auth, challenge));
    return { status: true };
  },
});
