import { z } from "zod";
import { resetPasswordContract } from "../../../contracts/password.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { readKnownDevice, rememberKnownDevice } from "../../sign-in-throttle/index.ts";
import { assertPasswordAllowed } from "../../users/index.ts";
import { isPasswordResetEnabled } from "../rules.ts";
import { findResetLinkUser, resetPassword as resetWithToken } from "../service.ts";

// An empty token is answered "invalid token" like any other wrong one, not as a schema error.
const _resetTokenField = z.string().max(256);

/** the token may come in the body or the query (body wins). */
export const resetPassword = defineEndpoint(resetPasswordContract, {
  async handler(ctx): Promise<{ status: true }> {
    if (!isPasswordResetEnabled(ctx.auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    const token = ctx.body.token || ctx.query.token;
    // The password rules before the token is used: a refused password must not consume it (the
    // user retries with it). They need the account's address, so the link's user is read first.
    const user = token ? await findResetLinkUser(ctx.auth, token) : null;
    await assertPasswordAllowed(ctx.auth, ctx.body.newPassword, user);
    if (!token) throw new AuthError("INVALID_TOKEN");
    answerRefusal(await resetWithToken(ctx.auth, token, user, ctx.body.newPassword));
    // The new password cleared every lane of the throttle; the device that used the mailed link
    // becomes a known device, so a stranger's failures from elsewhere do not delay the owner's
    // first sign-in on it either (docs/decisions/0007-a-mailed-link-ends-the-strangers-delays.md "A mailed link ends the stranger's delays").
    if (user)
      rememberKnownDevice(ctx.auth, ctx.cookies, user._id, readKnownDevice(ctx.auth, ctx.cookies, user._id));
    return { status: true };
  },
});
