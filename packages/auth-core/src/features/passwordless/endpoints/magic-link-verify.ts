import { type MagicLinkSignIn, magicLinkVerifyContract } from "../../../contracts/passwordless.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { AuthError, isAuthError } from "../../../errors/auth-error.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import { toSession, toUser } from "../../session/index.ts";
import { bannedUserError } from "../../users/index.ts";
import { findRecordHolder, takeLink } from "../checks.ts";
import { signInMailboxOwner } from "../sign-in.ts";
import { assertMagicLinkEnabled } from "./guards.ts";
import { twoFactorPageURL, withQuery } from "./redirects.ts";

/**
 * The confirmation of a mailed link (its page posts here, form or JSON): spends the link and its
 * code, then signs in. With a callbackURL the answer is a redirect — there, to newUserCallbackURL
 * for a new user, or to errorCallbackURL (else callbackURL) with `error=<catalogue code>`; without,
 * JSON as Better Auth answers it, or the catalogue error.
 */
export const magicLinkVerify = defineEndpoint(magicLinkVerifyContract, {
  acceptsForm: true,
  async handler(ctx): Promise<MagicLinkSignIn | TwoFactorRedirect | RedirectResult> {
    const { auth, body } = ctx;
    assertMagicLinkEnabled(auth);
    const fail = (code: ErrorCode): RedirectResult => {
      const target = body.errorCallbackURL ?? body.callbackURL;
      if (target === undefined) throw code === "BANNED_USER" ? bannedUserError(auth) : new AuthError(code);
      return redirectTo(withQuery(target, { error: code }));
    };
    const record = await takeLink(auth, body.token);
    if (!record) return fail("INVALID_TOKEN");
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    const holder = await findRecordHolder(auth, record);
    const outcome = await signInMailboxOwner(auth, request, record, holder, {
      signUpDisabled: auth.options.magicLink.disableSignUp,
      rememberMe: true,
    }).catch((error: unknown) => {
      // SSO required (features/sso-domains): a browser with a target goes there with the code.
      const target = body.errorCallbackURL ?? body.callbackURL;
      if (isAuthError(error) && error.code === "SSO_REQUIRED" && target !== undefined) return null;
      throw error;
    });
    if (outcome === null) return fail("SSO_REQUIRED");
    if (!outcome.ok) return fail(outcome.code);
    const signedIn = outcome.value;
    if (body.callbackURL === undefined) {
      if (signedIn.kind === "challenge") return signedIn.answer;
      const { session, user } = signedIn;
      return { token: session.token, user: toUser(user), session: toSession(session) };
    }
    const destination =
      signedIn.kind === "session" && signedIn.isNewUser
        ? (body.newUserCallbackURL ?? body.callbackURL)
        : body.callbackURL;
    if (signedIn.kind === "challenge")
      return redirectTo(twoFactorPageURL(auth.options.twoFactor.twoFactorPage, destination, signedIn.answer));
    return redirectTo(destination);
  },
});
