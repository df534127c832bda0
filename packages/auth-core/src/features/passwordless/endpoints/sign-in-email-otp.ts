import { type PasswordlessSignIn, signInEmailOTPContract } from "../../../contracts/passwordless.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { toUser } from "../../session/index.ts";
import { rememberKnownDevice } from "../../sign-in-throttle/index.ts";
import { bannedUserError } from "../../users/index.ts";
import { acceptMailedCode } from "../checks.ts";
import { readSsoPolicyEarly, signInMailboxOwner } from "../sign-in.ts";
import { answerCodeCheck, assertEmailOTPEnabled } from "./guards.ts";

/** Spends the sign-in code (and the link of its mail), then signs in or up. */
export const signInEmailOTP = defineEndpoint(signInEmailOTPContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<PasswordlessSignIn | TwoFactorRedirect> {
    const { auth, body } = ctx;
    assertEmailOTPEnabled(auth);
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    // The record is the one mailed to body.email (its identifier is that address's), so the policy
    // read for it is the record's address's: read beside the record, awaited after the code.
    const ssoCheck = readSsoPolicyEarly(auth, body.email, request);
    const accepted = answerCodeCheck(
      await acceptMailedCode(auth, ctx.cookies, {
        purpose: "sign-in",
        email: body.email,
        code: body.otp,
        consume: true,
      }),
      ctx,
    );
    const outcome = await signInMailboxOwner(auth, request, accepted.record, accepted.user, {
      signUpDisabled: auth.options.emailOTP.disableSignUp,
      name: body.name,
      rememberMe: body.rememberMe !== false,
      ssoCheck,
    });
    if (!outcome.ok)
      throw outcome.code === "BANNED_USER" ? bannedUserError(auth) : new AuthError(outcome.code);
    const signedIn = outcome.value;
    if (signedIn.kind === "challenge") return signedIn.answer;
    // The code was typed on this device: it becomes a known device of the user's (features/sign-in-throttle).
    rememberKnownDevice(auth, ctx.cookies, signedIn.user._id, accepted.user ? accepted.device : null);
    return { token: signedIn.session.token, user: toUser(signedIn.user) };
  },
});
