import { getTotpUriContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findTwoFactor, totpURIOf } from "../service.ts";
import { assertCallerPassword } from "./guards.ts";

/** POST /two-factor/get-totp-uri {password} → {totpURI} of the pending or active secret. */
export const getTotpUri = defineEndpoint(getTotpUriContract, {
  highRisk: true,
  sensitive: true,
  async handler(ctx): Promise<{ totpURI: string }> {
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    await assertCallerPassword(ctx.auth, caller.user, ctx.body.password);
    const doc = await findTwoFactor(ctx.auth, caller.user._id);
    const totpURI = doc ? totpURIOf(ctx.auth, caller.user, doc) : null;
    if (!totpURI) throw new AuthError("TOTP_NOT_ENABLED");
    return { totpURI };
  },
});
