import { getAccessTokenContract } from "../../../contracts/social.ts";
import type { AccessTokenResult } from "../../../contracts/social-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import type { OpenedTokens } from "../account-tokens.ts";
import { getValidAccessToken } from "../token-service.ts";
import { requireTokenAccount, resolveTokenOwner } from "./guards.ts";

/** The endpoint reference's (docs/reference.md) answer shape shared by /get-access-token and /refresh-token. */
export function toAccessTokenResult(tokens: OpenedTokens): AccessTokenResult {
  return {
    accessToken: tokens.accessToken ?? "",
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    scopes: tokens.scopes,
    idToken: tokens.idToken,
  };
}

/** the endpoint reference (docs/reference.md) POST /get-access-token: the owner's provider access token, refreshed first near expiry . */
export const getAccessToken = defineEndpoint(getAccessTokenContract, {
  sensitive: true,
  // An impersonation session lasts an hour; a provider token it reads (a refresh token above all)
  // or a change to the ways in outlives it (docs/security.md): refused while impersonating.
  highRisk: true,
  async handler(ctx): Promise<AccessTokenResult> {
    const userId = resolveTokenOwner(ctx.session, ctx.isServerCall, ctx.body.userId);
    const { provider, account } = await requireTokenAccount(ctx.auth, userId, ctx.body);
    return toAccessTokenResult(answerRefusal(await getValidAccessToken(ctx.auth, provider, account)));
  },
});
