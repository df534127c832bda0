import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findTokenAccount, forceRefresh, resolveTokenOwner } from "../token-service.ts";
import { type AccessTokenResult, toAccessTokenResult } from "./get-access-token.ts";
import { tokenRequestBody } from "./token-fields.ts";

export interface RefreshTokenResult extends AccessTokenResult {
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
}

/** SPEC §7 POST /refresh-token: refreshes at the provider and stores the new tokens (encrypted). */
export const refreshToken = defineEndpoint({
  name: "refreshToken",
  method: "POST",
  path: "/refresh-token",
  auth: "optional",
  sensitive: true,
  highRisk: true, // as /get-access-token (security-matrix J5)
  body: tokenRequestBody,
  async handler(ctx): Promise<RefreshTokenResult> {
    const userId = resolveTokenOwner(ctx.session, ctx.isServerCall, ctx.body.userId);
    const { provider, account } = await findTokenAccount(ctx.auth, userId, ctx.body);
    const tokens = await forceRefresh(ctx.auth, provider, account);
    return {
      ...toAccessTokenResult(tokens),
      refreshToken: tokens.refreshToken,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    };
  },
});
