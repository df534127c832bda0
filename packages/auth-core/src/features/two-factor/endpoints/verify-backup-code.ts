import { verifyBackupCodeContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { completeChallenge, type SignInCompleted } from "../challenge.ts";
import { claimBackupCode, findTwoFactor, releaseBackupCode } from "../service.ts";
import { admitCodeAttemptOrSay, answerCompletion, requireChallenge } from "./guards.ts";

/**
 * POST /two-factor/verify-backup-code {code, trustDevice?} → {token, user}: completes the sign-in
 * with one of the user's backup codes; each code works once (service.ts claimBackupCode).
 */
export const verifyBackupCode = defineEndpoint(verifyBackupCodeContract, {
  fieldErrors: { code: "INVALID_BACKUP_CODE" },
  async handler(ctx): Promise<SignInCompleted> {
    const { auth, body } = ctx;
    const challenge = await requireChallenge(auth, ctx.cookies);
    await admitCodeAttemptOrSay(ctx, challenge, "backup-code");
    const doc = await findTwoFactor(auth, challenge.userId);
    const marker = doc?.verified ? await claimBackupCode(auth, doc, body.code) : null;
    if (!marker) throw new AuthError("INVALID_BACKUP_CODE");
    // A parallel request (a TOTP code, say) that won this challenge leaves the code unspent.
    const completed = await completeChallenge(auth, ctx, challenge, body.trustDevice === true, () =>
      releaseBackupCode(auth, marker),
    );
    return answerCompletion(auth, completed);
  },
});
