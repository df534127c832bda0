import type { AuthContext } from "../../../context.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { type EmailVerified, verifyEmailContract } from "../../../contracts/verification.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import {
  type Established,
  establishSession,
  type SessionRequest,
  setCookieCache,
  toUser,
} from "../../session/index.ts";
import { bannedUserError } from "../../users/index.ts";
import {
  shouldAutoSignIn,
  VERIFY_FAILURE_ERRORS,
  VERIFY_FAILURE_REDIRECT_CODES,
  withQueryParam,
} from "../rules.ts";
import { claimAutoSignIn, verifyEmailToken } from "../verify-email-service.ts";

export const verifyEmail = defineEndpoint(verifyEmailContract, {
  // It writes (the address, and the caller's cookie cache): the caller is read from the database, so
  // a revoked session's cache is never re-signed here.
  sensitive: true,
  async handler(ctx): Promise<EmailVerified | RedirectResult> {
    const { auth, query, session: caller } = ctx;
    const outcome = await verifyEmailToken(auth, query.token, caller, query.callbackURL);
    if (!outcome.ok) {
      // token errors arrive as the callback's error parameter, or as 401 without one.
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
      const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
      const signedIn = await signInVerifiedUser(auth, request, user, query.callbackURL);
      if (signedIn.kind === "redirect") return signedIn.answer;
      if (signedIn.kind === "challenge") challenged = signedIn.answer;
    }
    if (query.callbackURL) return redirectTo(query.callbackURL);
    return { status: true, user: toUser(user), ...challenged };
  },
});

/**
 * The auto sign-in after verification. The address is verified either way: a banned user just gets
 * no session (with a callbackURL, the redirect names the reason), a two-factor user a challenge (its
 * cookie) instead of one.
 */
async function signInVerifiedUser(
  auth: AuthContext,
  request: SessionRequest,
  user: UserDoc,
  callbackURL: string | undefined,
): Promise<Established | { kind: "redirect"; answer: RedirectResult }> {
  const established = await establishSession(auth, request, user, {
    rememberMe: true,
    ban: "check",
    secondFactor: "gate",
  });
  if (established.kind !== "banned") return established;
  if (callbackURL)
    return { kind: "redirect", answer: redirectTo(withQueryParam(callbackURL, "error", "banned_user")) };
  throw bannedUserError(auth);
}
