import { spMetadataContract } from "../../../../contracts/sso-saml.ts";
import { answerRefusal } from "../../../../errors/refusal.ts";
import { defineEndpoint, type HtmlResult, xmlDocument } from "../../../../http/define-endpoint.ts";
import { findSamlProvider, readSpMetadata } from "../acs-flow.ts";

/**
 * GET /sso/saml2/sp/metadata?providerId=: what a customer's IT admin gives their IdP — our entity ID
 * and ACS URL (HTTP-POST) — as SAML metadata XML. Public, like every SP's metadata.
 */
export const spMetadata = defineEndpoint(spMetadataContract, {
  async handler(ctx): Promise<HtmlResult> {
    const provider = answerRefusal(await findSamlProvider(ctx.auth, ctx.query.providerId));
    return xmlDocument(readSpMetadata(ctx.auth, provider), "application/samlmetadata+xml");
  },
});
