import { generateBackupCodesContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findEnabledTwoFactor, regenerateBackupCodes } from "../service.ts";
import { assertCallerPassword } from "./guards.ts";

/** POST /two-factor/generate-backup-codes {password} → a new set; every code of the old set stops working. */
export const generateBackupCodes = defineEndpoint(generateBackupCodesContract, {
  highRisk: true,
  sensitive: true,
  async handler(ctx): Promise<{ status: true; backupCodes: string[] }> {
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    await assertCallerPassword(ctx.auth, caller.user, ctx.body.password);
    const doc = await findEnabledTwoFactor(ctx.auth, caller.user);
    if (!doc) throw new AuthError("TWO_FACTOR_NOT_ENABLED");
    return { status: true, backupCodes: answerRefusal(await regenerateBackupCodes(ctx.auth, doc)) };
  },
});
