import { accountInfoContract } from "../../../contracts/social.ts";
import type { AccountInfoResult } from "../../../contracts/social-models.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findProvider } from "../provider-access.ts";
import { findUserAccountByAccountId } from "../service.ts";
import { getValidAccessToken } from "../token-service.ts";
import { providerNotSupported } from "./guards.ts";

/**
 * the endpoint reference (docs/reference.md) POST /account-info {accountId} → {user, data}: what the provider says today about one of
 * the caller's linked accounts (`accountId` is the provider's account id, as /list-accounts shows).
 */
export const accountInfo = defineEndpoint(accountInfoContract, {
  sensitive: true,
  async handler(ctx): Promise<AccountInfoResult> {
    const { auth } = ctx;
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    const account = await findUserAccountByAccountId(auth, ctx.session.user._id, ctx.body.accountId);
    if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
    const provider = await findProvider(auth, account.providerId);
    if (!provider) throw providerNotSupported(account.providerId);
    const tokens = answerRefusal(await getValidAccessToken(auth, provider, account));
    const profile = await provider.getUserProfile({ ...tokens, tokenType: "Bearer" }, {}).catch(() => null);
    if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
    const { id, name, email, image, emailVerified } = profile;
    return { user: { id, name, email, image, emailVerified }, data: profile };
  },
});
