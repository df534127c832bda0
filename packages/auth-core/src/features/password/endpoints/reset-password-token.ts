import { resetPasswordCallbackContract } from "../../../contracts/password.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import { withQueryParam } from "../rules.ts";
import { isResetTokenLive } from "../service.ts";

/**
 * The link in the reset mail. It forwards the token to the app's page (which then posts
 * /reset-password) without consuming it, so a mail scanner that follows links cannot burn it.
 * callbackURL is required, as in the reference: without it there is nowhere to send the user.
 * The engine refuses an untrusted callbackURL with 403.
 */
export const resetPasswordCallback = defineEndpoint(resetPasswordCallbackContract, {
  async handler(ctx): Promise<RedirectResult> {
    // The token is in this URL: the engine keeps every answer out of caches and Referer headers
    // (http/handler.ts, docs/security.md "Responses that carry or follow a token").
    const token = ctx.params.token ?? "";
    const { callbackURL } = ctx.query;
    if (!(await isResetTokenLive(ctx.auth, token)))
      return redirectTo(withQueryParam(callbackURL, "error", "INVALID_TOKEN"));
    return redirectTo(withQueryParam(callbackURL, "token", token));
  },
});
