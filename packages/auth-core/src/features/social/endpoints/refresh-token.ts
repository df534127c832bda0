import { refreshTokenContract } from "../../../contracts/social.ts";
import type { RefreshTokenResult } from "../../../contracts/social-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { forceRefresh } from "../token-service.ts";
import { toAccessTokenResult } from "./get-access-token.ts";
import { requireTokenAccount, resolveTokenOwner } from "./guards.ts";

/** the endpoint reference (docs/reference.md) POST /refresh-token: refreshes at the provider and stores the new tokens (encrypted). */
export const refreshToken = defineEndpoint(refreshTokenContract, {
  sensitive: true,
  highRisk: true, // as /get-access-token (docs/security.md)
  async handler(ctx): Promise<RefreshTokenResult> {
    const userId = resolveTokenOwner(ctx.session, ctx.isServerCall, ctx.body.userId);
    const { provider, account } = await requireTokenAccount(ctx.auth, userId, ctx.body);
    const tokens = answerRefusal(await forceRefresh(ctx.auth, provider, account));
    return {
      ...toAccessTokenResult(tokens),
      refreshToken: tokens.refreshToken,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    };
  },
});
