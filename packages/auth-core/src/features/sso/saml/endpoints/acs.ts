import { samlAcsContract } from "../../../../contracts/sso-saml.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../../http/define-endpoint.ts";
import { completeSamlSignIn } from "../acs-flow.ts";

/**
 * POST /sso/saml2/sp/acs/{providerId}: the IdP's response, posted by the browser from the IdP's
 * page (SAML bindings §3.5). It arrives cross-site by design, so the Origin check cannot apply; it
 * needs none: only a response the connection's IdP signed, for this ACS and a request of ours (or,
 * where allowed, IdP-initiated), used once, signs anyone in (docs/security.md "SAML").
 */
export const samlAcs = defineEndpoint(samlAcsContract, {
  acceptsForm: true,
  acceptsCrossSitePost: true,
  async handler(ctx): Promise<RedirectResult> {
    const location = answerRefusal(
      await completeSamlSignIn(ctx.auth, ctx, ctx.params.providerId ?? "", ctx.body),
    );
    return redirectTo(location);
  },
});
