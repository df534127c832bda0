import { linkSocialAccountContract } from "../../../contracts/social.ts";
import type { LinkSocialResult } from "../../../contracts/social-models.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { linkWithIdToken } from "../id-token.ts";
import { findProvider } from "../provider-access.ts";
import { startAuthorizationFlow } from "../service.ts";

/**
 * the endpoint reference (docs/reference.md) POST /link-social → {url, redirect, status}: the sign-in flow, but the provider account
 * is linked to the signed-in user at the callback (or at once, with `idToken`). A fresh session is
 * required: a stolen, stale session must not be able to plant a second way in.
 */
export const linkSocial = defineEndpoint(linkSocialAccountContract, {
  sensitive: true,
  // An impersonation session lasts an hour; a provider token it reads (a refresh token above all)
  // or a change to the ways in outlives it (docs/security.md): refused while impersonating.
  highRisk: true,
  async handler(ctx): Promise<LinkSocialResult> {
    const { auth, body } = ctx;
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    const provider = await findProvider(auth, body.provider);
    if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
    if (!auth.options.account.accountLinking.enabled) throw new AuthError("LINKING_NOT_ALLOWED");
    const { user } = ctx.session;
    const target = { userId: user._id, email: user.email, emailVerified: user.emailVerified };
    if (body.idToken) {
      answerRefusal(await linkWithIdToken(auth, provider, target, body.idToken));
      return { url: "", redirect: false, status: true };
    }
    if (body.callbackURL === undefined && auth.options.baseURL === undefined)
      throw new AuthError("CALLBACK_URL_REQUIRED");
    const url = await startAuthorizationFlow(auth, ctx.cookies, provider, {
      callbackURL: body.callbackURL,
      errorCallbackURL: body.errorCallbackURL,
      newUserCallbackURL: undefined,
      scopes: body.scopes,
      loginHint: undefined,
      requestSignUp: body.requestSignUp,
      link: { userId: target.userId.toHexString() },
    });
    return { url, redirect: body.disableRedirect !== true, status: true };
  },
});
