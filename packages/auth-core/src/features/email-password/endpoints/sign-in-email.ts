import { type SignInResult, signInEmailContract } from "../../../contracts/email-password.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { establishSession, toUser } from "../../session/index.ts";
import { rememberKnownDevice } from "../../sign-in-throttle/index.ts";
import { assertSignInWithoutSso } from "../../sso-domains/index.ts";
import { bannedUserError } from "../../users/index.ts";
import { sendVerificationEmailInBackground } from "../../verification/index.ts";
import { proveSignInPassword } from "../service.ts";

export type { SignInResult } from "../../../contracts/email-password.ts";

export const signInEmail = defineEndpoint(signInEmailContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<SignInResult | TwoFactorRedirect> {
    const { auth, body } = ctx;
    const config = auth.options.emailAndPassword;
    if (!config.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    // An over-long password is never hashed (no CPU for an attacker); it cannot be anyone's.
    if (body.password.length > config.maxPasswordLength) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    const proven = await proveSignInPassword(auth, ctx.cookies, body.email, body.password);
    if (!proven.ok && proven.code === "ACCOUNT_TEMPORARILY_LOCKED") {
      // RFC 9110 Retry-After, and X-Retry-After as the rate limiter and two-factor lock answer.
      ctx.setHeader("Retry-After", String(proven.retryAfterSeconds));
      ctx.setHeader("X-Retry-After", String(proven.retryAfterSeconds));
    }
    const { found, device } = answerRefusal(proven);
    // Only now, with the password proven, may the answer reveal a ban; two-factor users get a
    // challenge instead of a session.
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    const established = await establishSession(auth, request, found, {
      rememberMe: body.rememberMe !== false,
      ban: "check",
      secondFactor: "gate",
      async beforeGate(user) {
        // A verified domain requiring SSO refuses the password, its owners aside (break-glass).
        await assertSignInWithoutSso(auth, user, "password", request);
        if (config.requireEmailVerification && !user.emailVerified) {
          // a fresh link comes with the 403, only while verification mails are on; the answer
          // must not depend on the mailer — a failure is logged, never a 5xx.
          const { enabled, sendOnSignIn } = auth.options.emailVerification;
          if (enabled && sendOnSignIn)
            await sendVerificationEmailInBackground(auth, user, body.callbackURL, {
              kind: "client",
              address: ctx.ip,
            });
          throw new AuthError("EMAIL_NOT_VERIFIED");
        }
        rememberKnownDevice(auth, ctx.cookies, user._id, device);
      },
    });
    if (established.kind === "banned") throw bannedUserError(auth);
    if (established.kind === "challenge") return established.answer;
    return {
      redirect: body.callbackURL !== undefined,
      token: established.session.token,
      url: body.callbackURL ?? null,
      user: toUser(established.user),
    };
  },
});
