import { verifyTotpContract } from "../../../contracts/two-factor.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { toUser } from "../../session/index.ts";
import {
  admitSessionAttempt,
  completeChallenge,
  hasChallengeCookie,
  type SignInCompleted,
} from "../challenge.ts";
import { sessionAttemptPrefix, userAttemptsOfUser } from "../rules.ts";
import { acceptTotpCode, deleteRowsWithPrefixes, findTwoFactor } from "../service.ts";
import { confirmEnrollment } from "../settings.ts";
import { issueTrustedDevice } from "../trusted-device.ts";
import { admitCodeAttemptOrSay, answerCompletion, requireChallenge } from "./guards.ts";

/**
 * POST /two-factor/verify-totp {code, trustDevice?} → {token, user}.
 * - With a sign-in challenge cookie: completes the sign-in (mints the session).
 * - Otherwise, with a session: confirms the enrollment (two-factor becomes active) or, once
 *   active, just checks the code; answers the caller's own session.
 * A code is accepted once (replay refused). Attempts are limited per challenge and per user at
 * sign-in, per session otherwise (challenge.ts). A malformed code answers INVALID_CODE without
 * spending an attempt.
 */
export const verifyTotp = defineEndpoint(verifyTotpContract, {
  sensitive: true,
  fieldErrors: { code: "INVALID_CODE" },
  async handler(ctx): Promise<SignInCompleted> {
    const { auth, body } = ctx;
    const caller = ctx.session;
    if (hasChallengeCookie(auth, ctx.cookies) || !caller) {
      const challenge = await requireChallenge(auth, ctx.cookies);
      await admitCodeAttemptOrSay(ctx, challenge, "code");
      const doc = await findTwoFactor(auth, challenge.userId);
      if (!doc?.verified) throw new AuthError("TOTP_NOT_ENABLED");
      if (!(await acceptTotpCode(auth, doc, body.code))) throw new AuthError("INVALID_CODE");
      return answerCompletion(auth, await completeChallenge(auth, ctx, challenge, body.trustDevice === true));
    }
    const doc = await findTwoFactor(auth, caller.user._id);
    if (!doc) throw new AuthError("TOTP_NOT_ENABLED");
    answerRefusal(await admitSessionAttempt(auth, caller.session));
    if (!(await acceptTotpCode(auth, doc, body.code))) throw new AuthError("INVALID_CODE");
    // The factor is proven: the session's failures go, and so do the user's sign-in ones (the owner
    // with a session clears a lock someone else's guesses caused).
    await deleteRowsWithPrefixes(auth, [
      sessionAttemptPrefix(caller.session._id.toHexString()),
      userAttemptsOfUser(caller.user._id.toHexString()),
    ]);
    const user = answerRefusal(await confirmEnrollment(auth, ctx.cookies, caller, doc));
    if (body.trustDevice === true) await issueTrustedDevice(auth, ctx.cookies, user._id);
    return { token: caller.session.token, user: toUser(user) };
  },
});
