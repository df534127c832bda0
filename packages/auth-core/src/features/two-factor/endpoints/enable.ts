import { enableTwoFactorContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { type Enrollment, enrollTwoFactor } from "../service.ts";
import { assertCallerPassword } from "./guards.ts";

/**
 * POST /two-factor/enable {password} → {totpURI, backupCodes}. Nothing is gated yet: two-factor
 * becomes active once verify-totp confirms a first code from the new secret. Calling it again
 * before that replaces the pending secret; once active, it is refused (disable first), so an
 * unconfirmed secret never replaces the one the user's authenticator holds.
 */
export const enableTwoFactor = defineEndpoint(enableTwoFactorContract, {
  highRisk: true,
  sensitive: true,
  async handler(ctx): Promise<Enrollment> {
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    await assertCallerPassword(ctx.auth, caller.user, ctx.body.password);
    if (caller.user.twoFactorEnabled) throw new AuthError("TWO_FACTOR_ALREADY_ENABLED");
    return enrollTwoFactor(ctx.auth, caller.user);
  },
});
