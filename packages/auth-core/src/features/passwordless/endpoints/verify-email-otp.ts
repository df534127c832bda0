import { type EmailVerifiedByOTP, verifyEmailOTPContract } from "../../../contracts/passwordless.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { establishSession, toUser } from "../../session/index.ts";
import { bannedUserError } from "../../users/index.ts";
import { markMailboxProven } from "../../verification/index.ts";
import { acceptMailedCode } from "../checks.ts";
import { answerCodeCheck, assertEmailOTPEnabled } from "./guards.ts";

/**
 * Verifies the address with a mailed code, as its link would: verified, provider identities linked
 * while it was unproven go. With `emailVerification.autoSignInAfterVerification` the user is signed
 * in through the session pipeline (ban check, second factor).
 */
export const verifyEmailOTP = defineEndpoint(verifyEmailOTPContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<EmailVerifiedByOTP | TwoFactorRedirect> {
    const { auth, body } = ctx;
    assertEmailOTPEnabled(auth);
    const { user } = answerCodeCheck(
      await acceptMailedCode(auth, ctx.cookies, {
        purpose: "email-verification",
        email: body.email,
        code: body.otp,
        consume: true,
      }),
      ctx,
    );
    // Only an existing user's code was mailed; an address nobody has holds a code nobody knows.
    const verified = user ? await markMailboxProven(auth, user) : null;
    if (!verified) throw new AuthError("INVALID_OTP");
    if (!auth.options.emailVerification.autoSignInAfterVerification)
      return { status: true, token: null, user: toUser(verified) };
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    const established = await establishSession(auth, request, verified, {
      rememberMe: true,
      ban: "check",
      secondFactor: "gate",
    });
    if (established.kind === "banned") throw bannedUserError(auth);
    if (established.kind === "challenge") return established.answer;
    return { status: true, token: established.session.token, user: toUser(established.user) };
  },
});
