import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { type EmailVerified, verifyEmailContract } from "../../../contracts/verification.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import { createSession, setCookieCache, setSessionCookies, toUser } from "../../session/index.ts";
import { gateSessionMint } from "../../two-factor/index.ts";
import { assertUserNotBanned } from "../../users/index.ts";
import {
  shouldAutoSignIn,
  VERIFY_FAILURE_ERRORS,
  VERIFY_FAILURE_REDIRECT_CODES,
  withQueryParam,
} from "../rules.ts";
import { claimAutoSignIn, verifyEmailToken } from "../verify-email-service.ts";

export const verifyEmail = defineEndpoint(verifyEmailContract, {
  // It writes (the address, and the caller's cookie cache): the caller is read from the database, so
  // a revoked session's cache is never re-signed here (review finding s9, cookie cache and writes).
  sensitive: true,
  async handler(ctx): Promise<EmailVerified | RedirectResult> {
    const { auth, query, session: caller } = ctx;
    const outcome = await verifyEmailToken(auth, query.token, caller, query.callbackURL);
    if (!outcome.ok) {
      // SPEC §8: token errors arrive as the callback's error parameter, or as 401 without one.
      if (query.callbackURL)
        return redirectTo(
          withQueryParam(query.callbackURL, "error", VERIFY_FAILURE_REDIRECT_CODES[outcome.reason]),
        );
      throw new AuthError(VERIFY_FAILURE_ERRORS[outcome.reason]);
    }
    const { user, claims } = outcome;
    let challenged: TwoFactorRedirect | null = null;
    if (caller?.user._id.equals(user._id)) {
      // The caller's cached copy of the user (when the cookie cache is on) must show the new state.
      setCookieCache(auth, ctx.cookies, caller.session, user);
    } else if (
      shouldAutoSignIn({
        enabled: auth.options.emailVerification.autoSignInAfterVerification,
        requestType: claims.requestType,
        becameVerified: outcome.becameVerified,
        signedIn: caller !== null,
      }) &&
      (await claimAutoSignIn(auth, query.token))
    ) {
      // The address is verified either way; a banned user just gets no session (features/admin).
      const signedIn = await assertUserNotBanned(auth, user).catch((error: unknown) => asError(error));
      if (signedIn instanceof Error) {
        if (query.callbackURL && signedIn instanceof AuthError)
          return redirectTo(withQueryParam(query.callbackURL, "error", "banned_user"));
        throw signedIn;
      }
      // Two-factor users get a challenge (its cookie) instead of a session (features/two-factor).
      challenged = await gateSessionMint(ctx, signedIn, { rememberMe: true });
      if (!challenged) {
        const session = await createSession(auth, {
          userId: signedIn._id,
          dontRemember: false,
          ipAddress: ctx.ip,
          userAgent: ctx.headers.get("user-agent"),
        });
        setSessionCookies(auth, ctx.cookies, session, signedIn);
      }
    }
    if (query.callbackURL) return redirectTo(query.callbackURL);
    return { status: true, user: toUser(user), ...challenged };
  },
});

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
