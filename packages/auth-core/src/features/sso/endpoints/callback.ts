import { callbackSsoContract } from "../../../contracts/sso.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import { completeSsoCallback } from "../callback.ts";

/** GET /sso/callback/{providerId}: the OIDC IdP's return; always a redirect (callback.ts). */
export const callbackSso = defineEndpoint(callbackSsoContract, {
  async handler(ctx): Promise<RedirectResult> {
    return redirectTo(await completeSsoCallback(ctx.auth, ctx, ctx.params.providerId ?? "", ctx.query));
  },
});
