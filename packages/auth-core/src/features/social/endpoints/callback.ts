import { callbackOAuthContract } from "../../../contracts/social.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import { completeCallback, forwardFormPost } from "../callback-flow.ts";

/**
 * docs/decisions/ GET|POST /callback/{id}: the return point of a provider sign-in; always a redirect.
 * A POST (Apple's `response_mode=form_post`) is turned into the same GET first: the browser's
 * SameSite=Lax cookies — the state binding among them — are not sent on a cross-site POST, but are
 * on the top-level GET that follows the redirect. The code and Apple's `user` JSON (name, email)
 * stay out of that URL: they are kept on the live state record (callback-flow.ts forwardFormPost).
 * That POST comes from the provider's origin (appleid.apple.com), so the Origin check cannot apply;
 * it needs none: the POST can only add to a state record whose (secret) state it names, and
 * completing a flow needs the state cookie, which a cross-site POST does not carry.
 */
export const oauthCallback = defineEndpoint(callbackOAuthContract, {
  acceptsForm: true,
  acceptsCrossSitePost: true,
  async handler(ctx): Promise<RedirectResult> {
    const { auth, params } = ctx;
    const providerId = params.id ?? "";
    if (Object.keys(ctx.body).length > 0)
      return redirectTo(await forwardFormPost(auth, providerId, { ...ctx.query, ...ctx.body }));
    return redirectTo(await completeCallback(auth, ctx, providerId, ctx.query));
  },
});
