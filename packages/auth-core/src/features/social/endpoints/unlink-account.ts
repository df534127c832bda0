import { unlinkAccountContract } from "../../../contracts/social.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { unlinkUserAccount } from "../unlink.ts";

/**
 * the endpoint reference (docs/reference.md) POST /unlink-account {providerId, accountId?} → {status}. Fresh session (docs/decisions/
 * §1.7): removing a way to sign in is account management, not browsing.
 */
export const unlinkAccount = defineEndpoint(unlinkAccountContract, {
  sensitive: true,
  // An impersonation session lasts an hour; a provider token it reads (a refresh token above all)
  // or a change to the ways in outlives it (docs/security.md): refused while impersonating.
  highRisk: true,
  async handler(ctx): Promise<{ status: true }> {
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    answerRefusal(
      await unlinkUserAccount(ctx.auth, ctx.session.user._id, ctx.body.providerId, ctx.body.accountId),
    );
    return { status: true };
  },
});
