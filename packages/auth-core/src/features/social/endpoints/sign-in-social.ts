import { signInSocialContract } from "../../../contracts/social.ts";
import type { SignInSocialResult } from "../../../contracts/social-models.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { signInWithIdToken } from "../id-token.ts";
import { findProvider } from "../provider-access.ts";
import { startAuthorizationFlow } from "../service.ts";
import { answerSignInRefusal } from "./guards.ts";

/**
 * the endpoint reference (docs/reference.md) POST /sign-in/social → {url, redirect}, or with `idToken` → {redirect, token, url, user}.
 * The four callback-type URLs are checked against the trusted origins before this runs
 * (http/run-endpoint.ts, docs/decisions/).
 */
export const signInSocial = defineEndpoint(signInSocialContract, {
  async handler(ctx): Promise<SignInSocialResult> {
    const { auth, body } = ctx;
    const provider = await findProvider(auth, body.provider);
    if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
    if (body.idToken) {
      const signedIn = await signInWithIdToken(auth, ctx, provider, {
        idToken: body.idToken,
        requestSignUp: body.requestSignUp === true,
        callbackURL: body.callbackURL,
        language: body.language,
      });
      return answerSignInRefusal(auth, signedIn);
    }
    // without a base URL there is no default place to send the browser back to.
    if (body.callbackURL === undefined && auth.options.baseURL === undefined)
      throw new AuthError("CALLBACK_URL_REQUIRED");
    const url = await startAuthorizationFlow(auth, ctx.cookies, provider, {
      callbackURL: body.callbackURL,
      errorCallbackURL: body.errorCallbackURL,
      newUserCallbackURL: body.newUserCallbackURL,
      scopes: body.scopes,
      loginHint: body.loginHint,
      requestSignUp: body.requestSignUp,
      link: null,
      language: body.language,
    });
    return { url, redirect: body.disableRedirect !== true };
  },
});
