import { setPasswordContract } from "../../../contracts/password.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { assertPasswordAllowed } from "../../users/index.ts";
import { setPassword as setCredentialPassword } from "../service.ts";

/**
 * server-only (over HTTP it does not exist). Gives a user without a
 * password — one who signed up through a provider — a credential password, for the session the
 * server forwards in the cookie header.
 */
export const setPassword = defineEndpoint(setPasswordContract, {
  sensitive: true,
  async handler(ctx): Promise<{ status: true }> {
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    await assertPasswordAllowed(ctx.auth, ctx.body.newPassword, ctx.session.user);
    answerRefusal(await setCredentialPassword(ctx.auth, ctx.session.user._id, ctx.body.newPassword));
    return { status: true };
  },
});
