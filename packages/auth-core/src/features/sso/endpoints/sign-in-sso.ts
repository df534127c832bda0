import { type SsoSignInResult, signInSsoContract } from "../../../contracts/sso.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { createSamlSignInURL } from "../saml/index.ts";
import { findSignInConnection, startOidcSignIn } from "../sign-in.ts";

/**
 * POST /sign-in/sso (Better Auth's path and payload) → { url, redirect: true }. The three URLs are
 * checked against the trusted origins before this runs (http/run-endpoint.ts).
 */
export const signInSso = defineEndpoint(signInSsoContract, {
  async handler(ctx): Promise<SsoSignInResult> {
    const { auth, body } = ctx;
    if (body.callbackURL === undefined && auth.options.baseURL === undefined)
      throw new AuthError("CALLBACK_URL_REQUIRED");
    const provider = answerRefusal(await findSignInConnection(auth, body));
    const url =
      provider.type === "saml"
        ? await createSamlSignInURL(auth, provider, {
            callbackURL: body.callbackURL ?? null,
            errorCallbackURL: body.errorCallbackURL ?? null,
            newUserCallbackURL: body.newUserCallbackURL ?? null,
            language: body.language ?? null,
          })
        : await startOidcSignIn(auth, ctx.cookies, provider, {
            callbackURL: body.callbackURL,
            errorCallbackURL: body.errorCallbackURL,
            newUserCallbackURL: body.newUserCallbackURL,
            scopes: body.scopes,
            loginHint: body.loginHint ?? body.email,
            requestSignUp: body.requestSignUp,
            language: body.language,
          });
    // The stored secret or SAML config does not open or is incomplete: the operator's mistake, not the caller's.
    if (url === null) throw new Error(`SSO connection ${provider.providerId} cannot start a sign-in`);
    return { url, redirect: true };
  },
});
