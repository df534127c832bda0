import { type GeneratedScimToken, generateScimTokenContract } from "../../../../contracts/scim-tokens.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireDomainManager } from "../../../sso-domains/index.ts";
import { generateScimToken } from "../service.ts";

/** POST /scim/generate-token: a new token for the connection (replacing its previous one), shown once. */
export const generateScimTokenEndpoint = defineEndpoint(generateScimTokenContract, {
  sensitive: true,
  highRisk: true,
  async handler(ctx): Promise<GeneratedScimToken> {
    const { organizationId, by } = await requireDomainManager(ctx, ctx.body.organizationId);
    return generateScimToken(ctx.auth, organizationId, ctx.body.providerId, by);
  },
});
