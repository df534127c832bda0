import { verifyBackupCodeContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { admitCodeAttempt, completeChallenge, readChallenge, type SignInCompleted } from "../challenge.ts";
import { claimBackupCode, releaseBackupCode } from "../service.ts";
import { findTwoFactor } from "../store.ts";

/**
 * POST /two-factor/verify-backup-code {code, trustDevice?} → {token, user}: completes the sign-in
 * with one of the user's backup codes; each code works once (service.ts claimBackupCode).
 */
export const verifyBackupCode = defineEndpoint(verifyBackupCodeContract, {
  fieldErrors: { code: "INVALID_BACKUP_CODE" },
  async handler(ctx): Promise<SignInCompleted> {
    const { auth, body } = ctx;
    const challenge = await readChallenge(auth, ctx.cookies);
    await admitCodeAttempt(ctx, challenge, "backup-code");
    const doc = await findTwoFactor(auth.collections, challenge.userId);
    const marker = doc?.verified ? await claimBackupCode(auth, doc, body.code) : null;
    if (!marker) throw new AuthError("INVALID_BACKUP_CODE");
    // A parallel request (a TOTP code, say) that won this challenge leaves the code unspent.
    return completeChallenge(auth, ctx, challenge, body.trustDevice === true, () =>
      releaseBackupCode(auth, marker),
    );
  },
});
