import { disableTwoFactorContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { disableTwoFactor as turnOff } from "../settings.ts";
import { assertCallerPassword } from "./guards.ts";

/**
 * POST /two-factor/disable {password} → {status: true}. Removes the second factor (also a pending,
 * unconfirmed one), its backup codes and every trusted device of the user.
 */
export const disableTwoFactor = defineEndpoint(disableTwoFactorContract, {
  highRisk: true,
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    await assertCallerPassword(ctx.auth, caller.user, ctx.body.password);
    answerRefusal(await turnOff(ctx.auth, ctx.cookies, caller));
    return { status: true };
  },
});
